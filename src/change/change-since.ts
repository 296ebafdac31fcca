/**
 * The change as an input (DESIGN §3): the config at a base revision, loaded by the same loader as now, and
 * compared with the config now. A base that cannot be read or loaded means "no change known": the run then
 * reads the account in full, and says why.
 */
import type { Env } from "../config/interpolate.ts";
import { loadConfig } from "../config/load.ts";
import type { Config } from "../config/types.ts";
import type { ChangeResult } from "../model/config-change.ts";
import { diffConfigs } from "./diff-configs.ts";
import { type ReadBaseOptions, readBaseText } from "./read-base.ts";

export interface ChangeOptions extends ReadBaseOptions {
  /**
   * The environment the config now was loaded with. The base is loaded with it too, so that `${VAR}` in a
   * domain names the same website at both ends; an unset variable there is no error (the base needs no
   * secret: a password is compared as written, DESIGN §3).
   */
  env?: Env;
}

/** The change between the config file at git revision `ref` and `head`, the same file loaded now. */
export async function changeSince(ref: string, head: Config, options: ChangeOptions = {}): Promise<ChangeResult> {
  const base = await readBaseText(ref, head.file, options);
  if (!base.ok) return { known: false, ref, reason: base.reason, ...(base.detail ? { detail: base.detail } : {}) };
  const result = changeFromText(ref, base.text, head, options.env);
  return result.known ? { known: true, change: { ...result.change, commit: base.commit } } : result;
}

/**
 * The change from a base given as text: read through the GitHub API by the Action, or by `changeSince`
 * from git. `ref` names the base in every output.
 */
export function changeFromText(ref: string, text: string, head: Config, env?: Env): ChangeResult {
  const loaded = loadConfig(head.file, { source: text, unsetEnv: "warning", ...(env ? { env } : {}) });
  if (!loaded.ok) {
    const [first] = loaded.errors;
    const detail = first ? { line: first.line, column: first.column, code: first.code } : {};
    return { known: false, ref, reason: "base-invalid", detail };
  }
  return { known: true, change: diffConfigs(loaded.config, head, ref) };
}
