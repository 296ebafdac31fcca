/**
 * The few git commands the change needs, run without a shell, with a timeout and bounded output (DESIGN
 * §12). Results are exit codes and bytes, never git's English (STYLE 16).
 */
import { execFile } from "node:child_process";

export interface GitResult {
  /** 0 on success; git's exit code, or -1 when it did not run (not installed, timed out, output too large). */
  exitCode: number;
  stdout: Buffer;
  /** Why it did not run, as a code: `ENOENT` (no git), `timeout`, `too-large`. */
  failure?: "ENOENT" | "timeout" | "too-large" | "spawn";
}

export interface GitOptions {
  cwd: string;
  timeoutMs: number;
  /** The most stdout read; more is a `too-large` failure. */
  maxBytes: number;
  /** Written to git's standard input (`cat-file --batch`), which is closed after it. */
  input?: string;
}

/**
 * Runs `git ARGS` in `cwd`. Never prompts (a fetch that would ask for credentials fails instead), and reads
 * no user configuration that could run a program on its own (pager, fsmonitor).
 */
export function git(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const env = { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0" };
  return new Promise((resolve) => {
    const child = execFile(
      "git",
      ["-c", "core.fsmonitor=false", ...args],
      { cwd: options.cwd, env, timeout: options.timeoutMs, maxBuffer: options.maxBytes, encoding: "buffer", windowsHide: true },
      (error, stdout) => {
        if (!error) return resolve({ exitCode: 0, stdout });
        const cause = error as NodeJS.ErrnoException & { killed?: boolean; code?: number | string };
        if (cause.code === "ENOENT") return resolve({ exitCode: -1, stdout, failure: "ENOENT" });
        if (cause.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER") return resolve({ exitCode: -1, stdout, failure: "too-large" });
        if (cause.killed) return resolve({ exitCode: -1, stdout, failure: "timeout" });
        resolve(typeof cause.code === "number" ? { exitCode: cause.code, stdout } : { exitCode: -1, stdout, failure: "spawn" });
      },
    );
    // A git that exits before reading all of it (a bad revision) closes the pipe: its exit code says why.
    child.stdin?.on("error", () => {});
    child.stdin?.end(options.input ?? "");
  });
}
