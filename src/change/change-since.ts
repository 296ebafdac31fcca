/**
 * The change as an input (DESIGN §3): the config at a base revision, loaded by the same loader as now (every
 * file it included there, as the commit holds them), and compared with the config now. A base that cannot be
 * read or loaded means "no change known": the run then reads the account in full, and says why.
 *
 * A fleet is compared account by account: the run of one account (`Config.account`) follows the change of
 * that account's slice of the base, cut as its run cuts it now, so an entry moved from one file to another
 * is no change, and an edit in one account's file touches no other account.
 */
import { accountConfig } from "../config/accounts.ts";
import type { Env } from "../config/interpolate.ts";
import { loadConfig } from "../config/load.ts";
import type { ConfigSource } from "../config/source.ts";
import type { Config } from "../config/types.ts";
import type { ChangeResult, ConfigChange } from "../model/config-change.ts";
import { diffConfigs, type Revision } from "./diff-configs.ts";
import { type BaseMemo, loadBase } from "./load-base.ts";
import type { ReadBaseOptions } from "./read-base.ts";

export interface ChangeOptions extends ReadBaseOptions {
  /** Shares the load of the base between the accounts of one run: each compares its own slice of it. */
  bases?: BaseMemo;
  /**
   * The environment the config now was loaded with. The base is loaded with it too, so that `${VAR}` in a
   * domain names the same website at both ends; an unset variable there is no error (the base needs no
   * secret: a password is compared as written, DESIGN §3).
   */
  env?: Env;
}

/** The change between the config at git revision `ref` and `head`, the same config loaded now. */
export async function changeSince(ref: string, head: Config, options: ChangeOptions = {}): Promise<ChangeResult> {
  const base = await loadBase(ref, head, { ...options, byEntries: head.account === undefined });
  if (!base.ok) {
    const { ok: _ok, ...unknown } = base;
    return unknown;
  }
  const now = base.head ? { head: base.head } : {};
  return { known: true, change: { ...changeOf(base.config, base.now ?? head, ref), commit: base.commit, ...now } };
}

/**
 * The change from a base given as the root file's text (read through the GitHub API, say): one file, so a
 * base whose `include:` names other files is no change known (`many-files`). `ref` names the base in every
 * output.
 */
export async function changeFromText(ref: string, text: string, head: Config, env?: Env): Promise<ChangeResult> {
  let includes = false;
  const alone: ConfigSource = {
    list: async () => {
      includes = true;
      return undefined;
    },
    read: async (files) => files.map(() => "not given"),
  };
  const loaded = await loadConfig(head.file, { source: text, unsetEnv: "warning", files: alone, ...(env ? { env } : {}) });
  if (includes) return { known: false, ref, reason: "many-files" };
  if (!loaded.ok) {
    const [first] = loaded.errors;
    const detail = first ? { line: first.line, column: first.column, code: first.code } : {};
    return { known: false, ref, reason: "base-invalid", detail };
  }
  return { known: true, change: changeOf(loaded.config, head, ref) };
}

/**
 * `head` (loaded now) against the same slice of `base` (loaded at `ref`): the whole config, or with `head.account`, that account's. What
 * `accounts:` changed for it reads in full (`accounts`): an account new since the base (each of its entries
 * added), a config that gained or lost `accounts:`, and an account whose key variables changed, since another
 * key may name another account at the same address.
 */
export function changeOf(base: Config, head: Config, ref: string): ConfigChange {
  const account = head.account;
  if (account === undefined) {
    const change = diffConfigs(base, head, ref);
    return (base.accounts === undefined) === (head.accounts === undefined) ? change : withAccountsCause(change);
  }
  // A fleet made of a one-account file: its account now is compared with that file.
  if (base.accounts === undefined) return withAccountsCause(diffConfigs(base, head, ref));
  const was = base.accounts.find((a) => a.name === account.name);
  if (was === undefined) {
    const none: Revision = { ...head, websites: [], ...(head.projects ? { projects: [] } : {}) };
    return withAccountsCause(diffConfigs(none, head, ref));
  }
  const change = diffConfigs(accountConfig(base, was), head, ref);
  const keysChanged = was.apiKeyEnv !== account.apiKeyEnv || was.projectsApiKeyEnv !== account.projectsApiKeyEnv;
  return keysChanged ? withAccountsCause(change) : change;
}

function withAccountsCause(change: ConfigChange): ConfigChange {
  return { ...change, fullRead: [...change.fullRead, "accounts"] };
}
