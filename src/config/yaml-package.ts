/**
 * The `yaml` package, the position-keeping parser (DESIGN §2 "Loading", §10), loaded the first time a
 * position or an edit is needed. A valid config is read by js-yaml alone, and loading yaml's 72 modules cost
 * every command about 30 ms of CPU. It is loaded with `require` (yaml's Node build is CommonJS), since the
 * loader asks for positions synchronously. The Action's bundle has no node_modules to require it from, so
 * scripts/build-action.ts bundles this module as a static import of the package instead.
 */
import { createRequire } from "node:module";
import type * as Yaml from "yaml";

let loaded: typeof Yaml | undefined;

export function yamlPackage(): typeof Yaml {
  loaded ??= createRequire(import.meta.url)("yaml") as typeof Yaml;
  return loaded;
}
