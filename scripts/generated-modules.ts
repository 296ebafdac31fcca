/**
 * The modules of lib/ that the package build generates instead of compiling them from src/ (DESIGN §11; why,
 * in each one's script). Both builds write them over the compiled ones (scripts/build-package.ts, and the
 * bench's, bench/built-package.ts), and the package smoke checks that the tarball carries them, so the three
 * cannot drift apart.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ofetchCore } from "./ofetch-core.ts";
import { standaloneValidators } from "./standalone-validators.ts";

export const GENERATED_MODULES = [
  // The schemas' validators compiled ahead, so no command compiles one when it starts.
  { path: "config/schema-validators.js", script: "scripts/standalone-validators.ts", text: standaloneValidators },
  // ofetch's two exports sitesync uses, without the globals its entry reads as it loads.
  { path: "api/ofetch-core.js", script: "scripts/ofetch-core.ts", text: ofetchCore },
] as const;

/** Writes each generated module over the compiled one in a build's `lib/` (the package's, or the bench's). */
export function writeGeneratedModules(lib: string): void {
  for (const module of GENERATED_MODULES) writeFileSync(join(lib, module.path), module.text());
}
