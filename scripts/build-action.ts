/**
 * Bundles the GitHub Action (src/action/main.ts) into one ESM file, dist/index.js, which action.yml runs
 * with `node24`. The bundle is committed, so it is built to be reviewable and reproducible: no minifying,
 * no source map, paths relative to the repository. CI rebuilds it and fails if it differs from the commit.
 *
 *   node scripts/build-action.ts           # write dist/index.js
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { ofetchCoreEntry } from "./ofetch-core.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * src/config/yaml-package.ts loads yaml with require() when a position is first needed; the bundle has no
 * node_modules to require it from, so here the module imports yaml statically and the bundle holds it.
 */
const bundledYaml: Plugin = {
  name: "bundled-yaml",
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]src[\\/]config[\\/]yaml-package\.ts$/ }, () => ({
      contents: 'import * as yaml from "yaml";\n\nexport function yamlPackage() {\n  return yaml;\n}\n',
      loader: "ts",
      resolveDir: join(root, "src", "config"),
    }));
  },
};

/**
 * src/api/ofetch-core.ts takes ofetch's two exports from the module its ESM entry takes them from, as the
 * package does (scripts/ofetch-core.ts): the bundle then holds neither the entry's default instance, whose
 * reading of Node's globals loads undici, nor node-fetch-native.
 */
const bundledOfetchCore: Plugin = {
  name: "ofetch-core",
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]src[\\/]api[\\/]ofetch-core\.ts$/ }, () => ({
      contents: ofetchCoreEntry(),
      loader: "js",
      resolveDir: join(root, "src", "api"),
    }));
  },
};

await build({
  absWorkingDir: root,
  entryPoints: ["src/action/main.ts"],
  outfile: "dist/index.js",
  bundle: true,
  platform: "node",
  target: "node24",
  format: "esm",
  // ajv and parts of @actions/* are CommonJS and call require(): give the ES module one.
  banner: { js: 'import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);' },
  minify: false,
  sourcemap: false,
  legalComments: "eof",
  charset: "utf8",
  logLevel: "warning",
  plugins: [bundledYaml, bundledOfetchCore],
});
console.log("wrote dist/index.js");
