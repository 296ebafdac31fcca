/**
 * Reads a config for `export --update` through the same pipeline as `loadConfig`, in one parse, keeping
 * what the update needs beside the values: the YAML tree with positions and each entry's origin.
 */
import type { FileView } from "../../config/file-view.ts";
import { type Env, references } from "../../config/interpolate.ts";
import { loadText } from "../../config/load.ts";
import { isRecord, type Locator } from "../../config/locate.ts";
import type { Normalized } from "../../config/normalize.ts";
import type { Diagnostic } from "../../errors.ts";
import { WRITE_ONLY_FIELDS } from "../../model/website-fields.ts";

export interface ReadConfig {
  /** The file's text and its position-keeping parse, built when the update edits the file. */
  view: FileView;
  locate: Locator;
  normalized: Normalized;
  /** Some node carries an anchor or is an alias. */
  anchored: boolean;
  /** The file's values as the loader read them (`<<` merged, `${VAR}` interpolated). */
  data: Record<string, unknown>;
  /** Whether some value holds a `${VAR}`. */
  interpolated: boolean;
}

/**
 * Stands in for unset variables that only write-only fields use: those values are never compared or written,
 * so the file can be updated without its secrets, as it can be planned without them (DESIGN §2).
 */
const PLACEHOLDER = "sitesync-update-placeholder";

export function readConfig(file: string, text: string, env: Env): ReadConfig | { diagnostics: Diagnostic[] } {
  // One parse: the file the loader validated is the file the update edits.
  const loaded = loadText(file, text, { envFor: (data) => withPlaceholders(data, env) });
  const tree = loaded.files?.[0];
  if (!loaded.result.ok || !tree) return { diagnostics: loaded.result.ok ? [] : loaded.result.errors };
  if (loaded.includes) {
    // One file only: the root alone would take the included files' websites for unlisted ones. A config of
    // many files is updated file by file (update-files.ts).
    const message = "this file includes other files: update the config as a whole (sitesync export --update), not this file alone";
    const at = tree.locate.key(["include"]);
    return { diagnostics: [{ file, ...at, code: "update.include", path: "include", message, severity: "error" }] };
  }
  return tree;
}

/** `env`, with a placeholder for each unset variable that only write-only fields of the parsed file use. */
export function withPlaceholders(data: unknown, env: Env): Env {
  const names = new Set<string>();
  const seen = new Set<object>();
  const walk = (node: unknown, writeOnly: boolean): void => {
    if (typeof node === "object" && node !== null && seen.has(node)) return;
    if (Array.isArray(node)) {
      seen.add(node);
      for (const item of node) walk(item, writeOnly);
    } else if (isRecord(node)) {
      seen.add(node);
      for (const [key, value] of Object.entries(node)) walk(value, writeOnly || (WRITE_ONLY_FIELDS as readonly string[]).includes(key));
    } else if (writeOnly && typeof node === "string") {
      for (const ref of references(node)) names.add(ref.name);
    }
  };
  walk(data, false);
  const unset = [...names].filter((name) => env[name] === undefined);
  return unset.length === 0 ? env : { ...env, ...Object.fromEntries(unset.map((name) => [name, PLACEHOLDER])) };
}
