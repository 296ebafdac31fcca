/**
 * Which accounts of a fleet a change touches (DESIGN §7), for `sitesync matrix
 * --changed-since REF`: an account whose files changed (added, edited), whose entry under the root's
 * `accounts:` changed, and every account when the root's shared keys changed or a config file was removed
 * (its account is no longer known). Never fewer than the change touches: when in doubt, every account. And
 * every account whose own slice of the config differs from the base's, as its plan follows the change: an
 * account that lost a file's websites to another shows there, though none of its files changed.
 */
import { existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { accountConfig } from "../config/accounts.ts";
import { parseFast } from "../config/fast-yaml.ts";
import { readConfigBytes } from "../config/read-bounded.ts";
import type { Config } from "../config/types.ts";
import type { UnknownChangeReason } from "../model/config-change.ts";
import { changeOf } from "./change-since.ts";
import { git } from "./git.ts";
import { type LoadBaseOptions, loadBase } from "./load-base.ts";
import { readBaseText } from "./read-base.ts";

export type TouchedAccounts = { known: true; accounts: string[] } | { known: false; reason: UnknownChangeReason };

const GIT = { timeoutMs: 10_000, maxBytes: 16 * 2 ** 20 };

/** The names of the accounts of `config` that the change since `ref` touches, in the root file's order. */
export async function accountsTouched(ref: string, config: Config, options: LoadBaseOptions = {}): Promise<TouchedAccounts> {
  const accounts = config.accounts ?? [];
  const all = accounts.map((a) => a.name);
  const base = await readBaseText(ref, config.file, options);
  if (!base.ok) return { known: false, reason: base.reason };
  const cwd = dirname(config.file);
  const changed = await changedPaths(base.commit, cwd);
  if (changed === undefined) return { known: false, reason: "base-unreadable" };
  const rootName = relative(cwd, config.file);
  const touched = new Set<string>();
  for (const account of accounts) {
    if (account.files.some((file) => file !== config.file && changed.has(relative(cwd, file)))) touched.add(account.name);
  }
  const files = new Set(accounts.flatMap((a) => a.files.map((file) => relative(cwd, file))));
  // A config file gone since the base: whose websites it held is not known now.
  const removed = [...changed].some(
    (path) => /\.ya?ml$/.test(path) && !files.has(path) && path !== rootName && !existsSync(join(cwd, path)),
  );
  if (removed) return { known: true, accounts: all };
  if (changed.has(rootName)) for (const name of rootTouched(base.text, config.file, all)) touched.add(name);
  const loaded = await loadBase(base.commit, config, options);
  if (loaded.ok) {
    for (const account of accounts) {
      const change = changeOf(loaded.config, accountConfig(config, account), ref);
      if (change.websites.length + change.projects.length + change.fullRead.length > 0) touched.add(account.name);
    }
  }
  return { known: true, accounts: all.filter((name) => touched.has(name)) };
}

/** Paths (relative to `cwd`) that differ between `commit` and the working tree, untracked new files included. */
async function changedPaths(commit: string, cwd: string): Promise<Set<string> | undefined> {
  const diff = await git(["diff", "--name-only", "--no-renames", "--relative", "-z", commit, "--", "."], { cwd, ...GIT });
  const untracked = await git(["ls-files", "--others", "--exclude-standard", "-z", "--", "."], { cwd, ...GIT });
  if (diff.exitCode !== 0 || untracked.exitCode !== 0) return undefined;
  const names = (out: Buffer) =>
    out
      .toString("utf8")
      .split("\0")
      .filter((name) => name !== "");
  return new Set([...names(diff.stdout), ...names(untracked.stdout)]);
}

/**
 * The accounts a change of the root file touches: those whose `accounts:` entry differs, or every one when
 * anything else in the root differs (policy, defaults, include, websites: shared by all).
 */
function rootTouched(baseText: string, rootFile: string, all: readonly string[]): string[] {
  const bytes = readConfigBytes(rootFile);
  const now = readYaml(typeof bytes === "string" ? undefined : bytes.toString("utf8"));
  const before = readYaml(baseText);
  if (now === undefined || before === undefined) return [...all];
  const { accounts: nowAccounts, ...nowRest } = now;
  const { accounts: baseAccounts, ...baseRest } = before;
  if (!same(nowRest, baseRest)) return [...all];
  const entry = (accounts: unknown, name: string) => (isObject(accounts) ? accounts[name] : undefined);
  return all.filter((name) => !same(entry(nowAccounts, name), entry(baseAccounts, name)));
}

function readYaml(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  // The fast parse, bounded (DESIGN §12); unreadable YAML touches every account.
  const parsed = parseFast(text);
  return parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
