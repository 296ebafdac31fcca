/** Running the real CLI (`bin/sitesync.js`) in a child process, against a sandbox over real HTTP. */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/sitesync.js", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `sitesync ...args` with a clean environment: only PATH and HOME leak in, plus `env`. */
export function sitesync(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<CliResult> {
  return spawnNode([BIN, ...args], options);
}

/**
 * Runs the CLI once per argument list in ONE child process with a clean environment (as `sitesync`): for
 * tests that run it many times, so that each run does not pay for starting Node.
 */
export async function sitesyncMany(runs: string[][], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<CliResult[]> {
  const result = await spawnNode([MANY, JSON.stringify(runs)], options);
  if (result.code !== 0) throw new Error(`the CLI runner failed (${result.code}):\n${result.stderr}`);
  return result.stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as CliResult);
}

const MANY = fileURLToPath(new URL("./_run-many.ts", import.meta.url));

function spawnNode(args: string[], options: { env?: Record<string, string>; cwd?: string }): Promise<CliResult> {
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", ...options.env };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, cwd: options.cwd ?? ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** A running `sitesync ...args`: its output so far, a way to wait for a line, and its end. */
export interface RunningCli {
  child: ChildProcess;
  stderr(): string;
  /** Resolves once stderr matches `pattern`. */
  waitForStderr(pattern: RegExp): Promise<void>;
  done: Promise<CliResult>;
}

/** Starts `sitesync ...args` (clean environment, as `sitesync`) without waiting for it: to signal it mid-run. */
export function startSitesync(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): RunningCli {
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", ...options.env };
  const child = spawn(process.execPath, [BIN, ...args], { env, cwd: options.cwd ?? ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const waiters: Array<{ pattern: RegExp; resolve: () => void }> = [];
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const waiter of waiters.filter((w) => w.pattern.test(stderr))) waiter.resolve();
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? -1 : -2), stdout, stderr }));
  });
  const waitForStderr = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      if (pattern.test(stderr)) return resolve();
      waiters.push({ pattern, resolve });
      void done.then(() => reject(new Error(`the CLI ended before its stderr matched ${pattern}:\n${stderr}`)));
    });
  return { child, stderr: () => stderr, waitForStderr, done };
}

/** A fresh temporary folder with `files` written into it; returns its path. */
export function workdir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-e2e-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

export const HEADER = "# yaml-language-server: $schema=../schemas/sitesync.schema.json\nversion: 1\n";
