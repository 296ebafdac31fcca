/**
 * Builds the package users install (DESIGN §11): `tsc -p tsconfig.build.json` compiles src/ to ESM JavaScript
 * and .d.ts in lib/, one file per source file, with `rewriteRelativeImportExtensions` turning `./x.ts` into
 * `./x.js`. Run by `prepack`, so `npm pack`, `npm publish` and `npm install <git url>` all ship a fresh build.
 *
 * tsc rewrites the extensions in the JavaScript only, never in declaration files (microsoft/TypeScript#61037),
 * so the .d.ts files are rewritten here: TypeScript reads `./x.ts` in a .d.ts, but older TypeScript, editors
 * and declaration tools do not, and the package must not name files it does not ship.
 *
 * lib/config/schema-validators.js is then replaced by ajv's standalone code of the same validators
 * (scripts/standalone-validators.ts): an installed sitesync compiles no schema when it starts. And
 * lib/api/ofetch-core.js by ofetch's createFetch and FetchError bundled without the instance its entry builds
 * from Node's globals (scripts/ofetch-core.ts): a command that sends a request does not load undici for it.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeGeneratedModules } from "./generated-modules.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const LIB = join(ROOT, "lib");
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

/** `from "./x.ts"`, `import("../y.ts")`, `export * from "./z.ts"`: relative specifiers ending in .ts. */
const TS_SPECIFIER = /((?:\bfrom|\bimport)\s*\(?\s*)(["'])(\.\.?\/[^"'\n]*?)\.ts\2/g;

rmSync(LIB, { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [TSC, "-p", join(ROOT, "tsconfig.build.json")], { stdio: "inherit" });
if (tsc.status !== 0) {
  console.error("build: tsc failed (see above); lib/ is incomplete");
  process.exit(1);
}

let rewritten = 0;
for (const file of readdirSync(LIB, { recursive: true, encoding: "utf8" })) {
  if (!file.endsWith(".d.ts")) continue;
  const path = join(LIB, file);
  const text = readFileSync(path, "utf8");
  const fixed = text.replace(TS_SPECIFIER, (_match, head: string, quote: string, stem: string) => `${head}${quote}${stem}.js${quote}`);
  if (fixed !== text) {
    writeFileSync(path, fixed);
    rewritten++;
  }
  const left = /["']\.\.?\/[^"'\n]*\.ts["']/.exec(fixed);
  if (left) {
    console.error(`build: ${join("lib", file)} still names a .ts file: ${left[0]}`);
    process.exit(1);
  }
}
// The modules generated instead of compiled (scripts/generated-modules.ts).
writeGeneratedModules(LIB);

console.log(`build: lib/ compiled from src/ (${rewritten} declaration files had their .ts imports rewritten to .js)`);
