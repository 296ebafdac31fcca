/**
 * The config file's text at a base revision (DESIGN §3): `git cat-file` of the file at REF, relative to the
 * repository root. `actions/checkout` clones with `--depth 1`, so a base that is not there is fetched once
 * (`git fetch --no-tags origin REF`, with `--depth=1` in a shallow clone only: in a full one it would make the
 * clone shallow and cut the history behind REF); when that fails too, no change is known and the run reads
 * the account in full, saying why.
 */
import { realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { MAX_CONFIG_BYTES } from "../config/read-bounded.ts";
import type { UnknownChangeReason } from "../model/config-change.ts";
import { type GitOptions, git } from "./git.ts";

export interface ReadBaseOptions {
  /** Each local git command, in ms. Default 10,000. */
  timeoutMs?: number;
  /** The one fetch of a missing base, in ms. Default 60,000. */
  fetchTimeoutMs?: number;
  /** Fetch a base that is not in the clone. Default true. */
  fetch?: boolean;
  /** The remote to fetch from. Default `origin`. */
  remote?: string;
}

export type BaseText =
  | {
      ok: true;
      ref: string;
      commit: string;
      text: string;
      fetched: boolean;
      /** The config file's path inside the repository, with `/`: where its `include:` globs are matched at `commit`. */
      path: string;
    }
  | { ok: false; ref: string; reason: UnknownChangeReason; detail?: { exitCode: number } };

const DEFAULTS = { timeoutMs: 10_000, fetchTimeoutMs: 60_000 };

/** Reads `configFile` as it was at `ref`. Never throws: a failure is a reason code. */
export async function readBaseText(ref: string, configFile: string, options: ReadBaseOptions = {}): Promise<BaseText> {
  const fail = (reason: UnknownChangeReason, exitCode?: number): BaseText =>
    exitCode === undefined ? { ok: false, ref, reason } : { ok: false, ref, reason, detail: { exitCode } };
  if (!isPlainRef(ref)) return fail("ref-invalid");
  const file = realpathOf(resolve(configFile));
  const run = { cwd: dirname(file), timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs, maxBytes: 64 * 1024 };
  const top = await git(["rev-parse", "--show-toplevel"], run);
  if (top.exitCode !== 0) return fail("not-a-repository", top.exitCode);
  const path = relative(realpathOf(top.stdout.toString("utf8").trim()), file);
  if (path === "" || path.startsWith("..") || isAbsolute(path)) return fail("file-outside-repository");
  const gitPath = path.split(sep).join("/");

  let commit = await commitOf(ref, run);
  let fetched = false;
  if (commit === undefined && options.fetch !== false) {
    const remote = options.remote ?? "origin";
    const shallow = await git(["rev-parse", "--is-shallow-repository"], run);
    const depth = shallow.stdout.toString("utf8").trim() === "true" ? ["--depth=1"] : [];
    const fetch = await git(["fetch", "--no-tags", ...depth, remote, ref], {
      ...run,
      timeoutMs: options.fetchTimeoutMs ?? DEFAULTS.fetchTimeoutMs,
    });
    if (fetch.exitCode !== 0) return fail("ref-unknown", fetch.exitCode);
    fetched = true;
    commit = (await commitOf(ref, run)) ?? (await commitOf("FETCH_HEAD", run));
  }
  if (commit === undefined) return fail("ref-unknown");

  const object = `${commit}:${gitPath}`;
  const exists = await git(["cat-file", "-e", object], run);
  if (exists.exitCode !== 0) return fail("base-missing");
  const size = await git(["cat-file", "-s", object], run);
  if (size.exitCode !== 0) return fail("base-unreadable", size.exitCode);
  if (Number(size.stdout.toString("utf8").trim()) > MAX_CONFIG_BYTES) return fail("base-too-large");
  // cat-file blob, not show: the bytes as committed, without textconv filters.
  const blob = await git(["cat-file", "blob", object], { ...run, maxBytes: MAX_CONFIG_BYTES + 1 });
  if (blob.exitCode !== 0) return fail(blob.failure === "too-large" ? "base-too-large" : "base-unreadable", blob.exitCode);
  const text = utf8(blob.stdout);
  if (text === undefined) return fail("base-unreadable");
  return { ok: true, ref, commit, text, fetched, path: gitPath };
}

/** The commit a revision names, when the clone has it. */
async function commitOf(ref: string, options: GitOptions): Promise<string | undefined> {
  const result = await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], options);
  const commit = result.stdout.toString("utf8").trim();
  return result.exitCode === 0 && /^[0-9a-f]{40,64}$/.test(commit) ? commit : undefined;
}

/**
 * A revision as git spells one, and nothing that git could read as an option (`-…`) or that would change the
 * object named with `REV:path` (`:`), or hold spaces or control characters.
 */
function isPlainRef(ref: string): boolean {
  return ref.length > 0 && ref.length <= 256 && !ref.startsWith("-") && !ref.includes(":") && !/[\s\p{Cc}]/u.test(ref);
}

/** A path with its symbolic links resolved, so that it compares with git's root; as given when it does not exist. */
function realpathOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function utf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
