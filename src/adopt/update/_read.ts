/**
 * Reads a config for `export --update` through the same pipeline as `loadConfig` (it calls it to validate),
 * keeping what the update needs beside the values: the YAML tree with positions and each entry's origin.
 */
import { type Document, isMap, isScalar, isSeq } from "yaml";
import { type Env, references } from "../../config/interpolate.ts";
import { interpolateDocument } from "../../config/interpolate-document.ts";
import { loadConfig } from "../../config/load.ts";
import { createLocator, keyName, type Locator } from "../../config/locate.ts";
import { type Normalized, normalize } from "../../config/normalize.ts";
import { parseYaml } from "../../config/parse-yaml.ts";
import type { Diagnostic } from "../../errors.ts";
import { WRITE_ONLY_FIELDS } from "../../model/website-fields.ts";

export interface ReadConfig {
  doc: Document;
  locate: Locator;
  normalized: Normalized;
}

/**
 * Stands in for unset variables that only write-only fields use: those values are never compared or written,
 * so the file can be updated without its secrets (issue 10 item 2).
 */
const PLACEHOLDER = "sitesync-update-placeholder";

export function readConfig(file: string, text: string, env: Env): ReadConfig | { diagnostics: Diagnostic[] } {
  const parsed = parseYaml(file, text);
  const fullEnv = withPlaceholders(parsed.doc, env);
  const loaded = loadConfig(file, { source: text, env: fullEnv });
  const errors = loaded.ok ? [] : loaded.errors;
  if (errors.length > 0) return { diagnostics: errors };
  const locate = createLocator(parsed.doc, parsed.lineCounter);
  if (loaded.ok && loaded.config.includes !== undefined) {
    // Issue 19 item 1 (editing each entry in the file that holds it, --into) is not built yet: updating the root
    // alone would add the included files' websites to it as unlisted ones.
    const message = "export --update cannot edit a config that includes other files yet; update each file by hand";
    return { diagnostics: [{ file, ...locate.key(["include"]), code: "update.include", path: "include", message, severity: "error" }] };
  }
  interpolateDocument(parsed.doc, file, text, fullEnv, locate);
  return { doc: parsed.doc, locate, normalized: normalize(parsed.doc.toJS(), file, locate) };
}

function withPlaceholders(doc: Document, env: Env): Env {
  const names = new Set<string>();
  const walk = (node: unknown, writeOnly: boolean): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = keyName(pair.key);
        walk(pair.value, writeOnly || (WRITE_ONLY_FIELDS as readonly string[]).includes(key ?? ""));
      }
    } else if (isSeq(node)) {
      for (const item of node.items) walk(item, writeOnly);
    } else if (writeOnly && isScalar(node) && typeof node.value === "string") {
      for (const ref of references(node.value)) names.add(ref.name);
    }
  };
  walk(doc.contents, false);
  const unset = [...names].filter((name) => env[name] === undefined);
  return unset.length === 0 ? env : { ...env, ...Object.fromEntries(unset.map((name) => [name, PLACEHOLDER])) };
}
