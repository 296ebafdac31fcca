/**
 * `prepare`: builds lib/ when it is missing. npm runs `prepare`, never `prepack`, when it installs sitesync
 * from git (`npm install github:your-org/sitesync`): without this, that install had no lib/ and `sitesync`
 * died with ERR_MODULE_NOT_FOUND (DESIGN §11). npm has installed the devDependencies (TypeScript, the pinned
 * Node 24) in the clone by then. In a checkout, `npm ci` builds lib/ once; the checkout itself runs src/
 * (bin/sitesync.js), so a lib/ older than src/ there is harmless, and `npm pack` rebuilds it in `prepack`.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
if (existsSync(join(ROOT, "src")) && !existsSync(join(ROOT, "lib", "cli", "main.js"))) {
  const build = spawnSync(process.execPath, [join(ROOT, "scripts", "build-package.ts")], { stdio: "inherit" });
  process.exitCode = build.status ?? 1;
}
