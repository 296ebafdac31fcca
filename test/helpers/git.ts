import { execFileSync } from "node:child_process";

/** `git ARGS` in `cwd` with a throwaway identity and no signing, as a test repository needs; its trimmed stdout. */
export function git(cwd: string, ...args: string[]): string {
  const identity = ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"];
  return execFileSync("git", [...identity, ...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}
