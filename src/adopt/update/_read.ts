/**
 * Reads a config for `export --update` through the same pipeline as `loadConfig`, in one parse, keeping
 * what the update needs beside the values: the YAML tree with positions and each entry's origin.
 */
import { type Document, isMap, isScalar, isSeq } from "yaml";
import { type Env, references } from "../../config/interpolate.ts";
import { loadDocument } from "../../config/load.ts";
import { keyName, type Locator } from "../../config/locate.ts";
import type { Normalized } from "../../config/normalize.ts";
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
  // One parse: the tree loadConfig validated is the tree the update edits (issue 20).
  const loaded = loadDocument(file, { source: text, envFor: (doc) => withPlaceholders(doc, env) });
  if (!loaded.result.ok || !loaded.tree) return { diagnostics: loaded.result.ok ? [] : loaded.result.errors };
  if (loaded.result.config.includes !== undefined) {
    // One file only: the root alone would take the included files' websites for unlisted ones. A config of
    // many files is updated file by file (update-files.ts).
    const message = "this file includes other files: update the config as a whole (sitesync export --update), not this file alone";
    const at = loaded.tree.locate.key(["include"]);
    return { diagnostics: [{ file, ...at, code: "update.include", path: "include", message, severity: "error" }] };
  }
  return loaded.tree;
}

/** `env`, with a placeholder for each unset variable that only write-only fields of `doc` use. */
export function withPlaceholders(doc: Document, env: Env): Env {
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
