/**
 * The whole config as it was at a base revision (DESIGN §3): the root file's text at REF, its `include:`
 * globs matched against the commit's tree and each included file read at the commit, all loaded by the same
 * loader as now (its globs, its checks). A base that cannot be read or loaded is no change known, with why.
 */
import { dirname, posix, relative, resolve, sep } from "node:path";
import type { Env } from "../config/interpolate.ts";
import { loadConfig } from "../config/load.ts";
import type { Config, LoadResult } from "../config/types.ts";
import type { ChangeResult } from "../model/config-change.ts";
import { type BaseTree, listBaseTree, readBaseFiles } from "./base-tree.ts";
import { type ReadBaseOptions, readBaseText } from "./read-base.ts";

export type BaseConfig = { ok: true; config: Config; commit: string } | (Extract<ChangeResult, { known: false }> & { ok: false });

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
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Loads `head.file` as it was at `ref`, with `env` (an unset variable is no error: the base needs no
 * secret, since a password is compared as written).
 */
export function loadBase(ref: string, head: Config, options: LoadBaseOptions = {}): Promise<BaseConfig> {
  const key = `${resolve(head.file)}\0${ref}`;
  const shared = options.bases?.get(key);
  if (shared) return shared;
  const loading = loadAt(ref, head, options);
  options.bases?.set(key, loading);
  return loading;
}

async function loadAt(ref: string, head: Config, options: LoadBaseOptions): Promise<BaseConfig> {
  const base = await readBaseText(ref, head.file, options);
  if (!base.ok) return { ok: false, known: false, ref, reason: base.reason, ...(base.detail ? { detail: base.detail } : {}) };
  const rootDir = dirname(head.file);
  const run = { cwd: dirname(resolve(head.file)), timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS };
  const named = (file: string) => relative(rootDir, file).split(sep).join("/");

  // What the loader asked for that the commit must still give: a folder listed, a file read.
  let tree: BaseTree | undefined;
  let bytes = new Map<string, Uint8Array>();
  const asked = { folders: false, files: [] as string[] };
  const load = (): LoadResult => {
    asked.folders = false;
    asked.files = [];
    return loadConfig(head.file, {
      source: base.text,
      unsetEnv: "warning",
      ...(options.env ? { env: options.env } : {}),
      listFolder: (folder) => {
        if (tree) return tree.list(folder);
        asked.folders = true;
        return undefined;
      },
      readFile: (file) => {
        const read = bytes.get(file);
        if (read) return read;
        asked.files.push(file);
        return "not in the base commit";
      },
    });
  };
  // At most three loads: the root alone; with its folder listed at the commit, when it includes files; with
  // the files its globs matched there read at the commit. A base without `include:` is loaded once.
  let loaded = load();
  if (asked.folders) {
    const folder = posix.dirname(base.path);
    const listed = await listBaseTree(base.commit, folder === "." ? "" : folder, rootDir, run);
    if (!listed.ok) return { ok: false, known: false, ref, reason: listed.reason };
    tree = listed.tree;
    loaded = load();
  }
  if (tree && asked.files.length > 0) {
    const read = await readBaseFiles(tree, asked.files, run);
    if (!read.ok)
      return { ok: false, known: false, ref, reason: read.reason, ...(read.file ? { detail: { file: named(read.file) } } : {}) };
    bytes = read.bytes;
    loaded = load();
  }
  if (!loaded.ok) {
    const [first] = loaded.errors;
    const detail = first
      ? { line: first.line, column: first.column, code: first.code, ...(first.file === head.file ? {} : { file: named(first.file) }) }
      : {};
    return { ok: false, known: false, ref, reason: "base-invalid", detail };
  }
  return { ok: true, config: loaded.config, commit: base.commit };
}
