/**
 * The whole config as it was at a base revision (DESIGN §3): the root file's text at REF, its `include:`
 * globs matched against the commit's tree and each included file read at the commit, all loaded once by the
 * same loader as now (its globs, its checks). A base that cannot be read or loaded is no change known, with why.
 */
import { dirname, posix, relative, resolve, sep } from "node:path";
import type { Env } from "../config/interpolate.ts";
import { loadConfig } from "../config/load.ts";
import type { ConfigSource } from "../config/source.ts";
import type { Config } from "../config/types.ts";
import type { ChangeResult, HeadCommit, UnknownChangeReason } from "../model/config-change.ts";
import { type BaseTree, listBaseTree, readBaseFiles } from "./base-tree.ts";
import { headCommit } from "./head-commit.ts";
import { loadByEntries } from "./load-by-entries.ts";
import { type BaseText, type ReadBaseOptions, readBaseText } from "./read-base.ts";

export type BaseConfig =
  | {
      ok: true;
      config: Config;
      commit: string;
      head?: HeadCommit;
      /**
       * With `byEntries`, when the base was loaded from the entries in which it differs (load-by-entries.ts):
       * the config now, cut to its own differing entries, to compare `config` with instead of the whole.
       */
      now?: Config;
    }
  | (Extract<ChangeResult, { known: false }> & { ok: false });

/**
 * The bases loaded in one run, by config file and revision: the accounts of a fleet compare their slices of
 * one base, loaded once (run/run-accounts.ts makes one per run). Once is also what a shallow clone needs: two
 * accounts fetching the missing base at the same moment fight over the clone's lock files, and one fails.
 */
export type BaseMemo = Map<string, Promise<BaseConfig>>;

export interface LoadBaseOptions extends ReadBaseOptions {
  /** The variables `${VAR}` reads; an unset one is no error (the base needs no secret). */
  env?: Env;
  /** Shares the load of a base between the accounts of one run. */
  bases?: BaseMemo;
  /**
   * The loader; `loadConfig` when left out. A test wraps it to count how often a base is loaded.
   * @internal
   */
  loader?: typeof loadConfig;
  /** Load the base from the entries in which it differs from the config now, where that stands for the whole. */
  byEntries?: boolean;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Loads `head.file` as it was at `ref`, with `env` (an unset variable is no error: the base needs no
 * secret, since a password is compared as written).
 */
export function loadBase(ref: string, head: Config, options: LoadBaseOptions = {}): Promise<BaseConfig> {
  const key = `${resolve(head.file)}\0${ref}${options.byEntries ? "\0entries" : ""}`;
  const shared = options.bases?.get(key);
  if (shared) return shared;
  const loading = loadAt(ref, head, options);
  options.bases?.set(key, loading);
  return loading;
}

async function loadAt(ref: string, head: Config, options: LoadBaseOptions): Promise<BaseConfig> {
  const base = await readBaseText(ref, head.file, options);
  if (!base.ok) return { ok: false, known: false, ref, reason: base.reason, ...(base.detail ? { detail: base.detail } : {}) };
  const cut = options.byEntries ? await loadByEntries(base.text, head, options) : undefined;
  if (cut) return { ok: true, config: cut.base, now: cut.now, commit: base.commit, ...(await headOf(head, options)) };
  const rootDir = dirname(head.file);
  const named = (file: string) => relative(rootDir, file).split(sep).join("/");
  const commit = commitSource(base, rootDir, { cwd: dirname(resolve(head.file)), timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS });
  const loaded = await (options.loader ?? loadConfig)(head.file, {
    source: base.text,
    unsetEnv: "warning",
    files: commit.source,
    ...(options.env ? { env: options.env } : {}),
  });
  if (commit.failure) {
    const { reason, file } = commit.failure;
    return { ok: false, known: false, ref, reason, ...(file ? { detail: { file: named(file) } } : {}) };
  }
  if (!loaded.ok) {
    const [first] = loaded.errors;
    const detail = first
      ? { line: first.line, column: first.column, code: first.code, ...(first.file === head.file ? {} : { file: named(first.file) }) }
      : {};
    return { ok: false, known: false, ref, reason: "base-invalid", detail };
  }
  return { ok: true, config: loaded.config, commit: base.commit, ...(await headOf(head, options)) };
}

/** What the config now is in git, once per base like the base itself: it tells a re-send from a first send. */
async function headOf(head: Config, options: LoadBaseOptions): Promise<{ head?: HeadCommit }> {
  const files = [head.file, ...(head.includes ?? []).map((file) => file.file)];
  const now = await headCommit(files, dirname(resolve(head.file)), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  return now ? { head: now } : {};
}

/**
 * The base commit as a config source: its tree listed once (one `git ls-tree`, on the first folder the globs
 * list), the included files read in one `git cat-file --batch`. What git could not give is kept as the
 * failure: the base is then no change known, with why, whatever the loader made of the missing files.
 */
function commitSource(
  base: Extract<BaseText, { ok: true }>,
  rootDir: string,
  run: { cwd: string; timeoutMs: number },
): { source: ConfigSource; failure?: { reason: UnknownChangeReason; file?: string } } {
  let tree: Promise<BaseTree | undefined> | undefined;
  const result: { source: ConfigSource; failure?: { reason: UnknownChangeReason; file?: string } } = {
    source: {
      list: async (folder) => {
        tree ??= listed();
        return (await tree)?.list(folder);
      },
      read: async (files) => {
        tree ??= listed();
        const listedTree = await tree;
        if (listedTree === undefined) return files.map(() => "not in the base commit");
        const read = await readBaseFiles(listedTree, files, run);
        if (read.ok) return files.map((file) => read.bytes.get(file) ?? "not in the base commit");
        result.failure ??= { reason: read.reason, ...(read.file ? { file: read.file } : {}) };
        return files.map(() => "not in the base commit");
      },
    },
  };
  const listed = async (): Promise<BaseTree | undefined> => {
    const folder = posix.dirname(base.path);
    const tree = await listBaseTree(base.commit, folder === "." ? "" : folder, rootDir, run);
    if (tree.ok) return tree.tree;
    result.failure ??= { reason: tree.reason };
    return undefined;
  };
  return result;
}
