/**
 * The commit the config now is (DESIGN §3 "Plans that follow the change"): HEAD, when none of the config's
 * files differs from it in the working tree (nor is untracked). A website written after its time was
 * written by applying this config or later, which tells a re-send from a first send. Never throws: no
 * repository, a git failure or an edited file is simply no head.
 */
import { resolve } from "node:path";
import type { HeadCommit } from "../model/config-change.ts";
import { git } from "./git.ts";

/** Past this many files, the root's folder is checked as a whole: a command line stays short. */
const MAX_PATHS = 200;

export async function headCommit(files: readonly string[], cwd: string, timeoutMs: number): Promise<HeadCommit | undefined> {
  const run = { cwd, timeoutMs, maxBytes: 64 * 1024 };
  const paths = files.length <= MAX_PATHS ? files.map((file) => resolve(file)) : [cwd];
  const status = await git(["status", "--porcelain", "--untracked-files=all", "-z", "--", ...paths], run);
  if (status.exitCode !== 0 || status.stdout.length > 0) return undefined;
  const log = await git(["log", "-1", "--format=%H %cI", "HEAD"], run);
  const [commit, time] = log.stdout.toString("utf8").trim().split(" ");
  if (log.exitCode !== 0 || !commit || !/^[0-9a-f]{40,64}$/.test(commit) || !time || Number.isNaN(Date.parse(time))) return undefined;
  return { commit, time };
}
