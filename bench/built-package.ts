/**
 * The package as users run it (issue 20): src/ compiled to JavaScript in a folder of its own, laid out as an
 * install is (lib/, schemas/, package.json; node_modules linked to the checkout's). A checkout runs the
 * TypeScript sources through Node's type stripping, which an installed sitesync never pays, so scenario 5
 * measures this build instead. Compiled with the build's own tsconfig, without declarations (nothing here
 * reads types), with the modules the build generates written as it writes them; the checkout's lib/ is left alone.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeGeneratedModules } from "../scripts/generated-modules.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

/** Builds the package into `dir` and returns the path of its `lib/cli/main.js`. */
export function buildPackage(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const args = [
    TSC,
    "-p",
    join(ROOT, "tsconfig.build.json"),
    "--outDir",
    join(dir, "lib"),
    "--declaration",
    "false",
    "--stripInternal",
    "false",
  ];
  const tsc = spawnSync(process.execPath, args, { encoding: "utf8" });
  if (tsc.status !== 0) throw new Error(`bench: building the package failed:\n${tsc.stdout}${tsc.stderr}`);
  // As scripts/build-package.ts does: the modules generated instead of compiled (scripts/generated-modules.ts).
  writeGeneratedModules(join(dir, "lib"));
  cpSync(join(ROOT, "schemas"), join(dir, "schemas"), { recursive: true });
  cpSync(join(ROOT, "package.json"), join(dir, "package.json"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return join(dir, "lib", "cli", "main.js");
}
