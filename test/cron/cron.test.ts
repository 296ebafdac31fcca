/**
 * examples/cron/sitesync-drift.sh as cron runs it: a fake `sitesync` on PATH that exits with a chosen code,
 * and once the real CLI against the sandbox. Needs bash and flock (util-linux); skipped without them.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WRAPPER = join(ROOT, "examples", "cron", "sitesync-drift.sh");
const hasTools = spawnSync("sh", ["-c", "command -v bash && command -v flock"]).status === 0;
if (!hasTools) console.warn("test/cron skipped: bash and flock (util-linux) are needed to run the cron wrapper");

const TIMESTAMP = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}`;

let dir: string;
let bin: string;
let holder: ChildProcess | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "sitesync-cron-"));
  bin = join(dir, "bin");
  mkdirSync(bin);
});

afterEach(() => {
  holder?.stdin?.end();
  holder = undefined;
});

/** A `sitesync` that records its arguments, prints `output` and exits with `code`. */
function fakeSitesync(code: number, output: string): void {
  const script = `#!/bin/sh\necho "$@" > "${dir}/args"\ncat <<'OUT'\n${output}\nOUT\nexit ${code}\n`;
  writeFileSync(join(bin, "sitesync"), script);
  chmodSync(join(bin, "sitesync"), 0o755);
}

interface WrapperRun {
  code: number;
  stdout: string;
  stderr: string;
  log: string;
}

function runWrapper(args: string[] = [], env: Record<string, string> = {}): Promise<WrapperRun> {
  const logFile = join(dir, "logs", "drift.log");
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [WRAPPER, ...args], {
      cwd: dir,
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: dir, SITESYNC_LOG: logFile, SITESYNC_LOCK: join(dir, "lock"), ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr, log: existsSync(logFile) ? readFileSync(logFile, "utf8") : "" }));
  });
}

/** Holds the wrapper's lock from another process until the test ends (closing its stdin releases it). */
function holdLock(): Promise<void> {
  const child = spawn("bash", ["-c", 'exec 9>>"$1"; flock -n 9 || exit 1; echo held; read -r _', "hold", join(dir, "lock")]);
  holder = child;
  return new Promise((resolve, reject) => {
    child.stdout.once("data", () => resolve());
    child.on("exit", (code) => reject(new Error(`could not take the lock (exit ${code})`)));
  });
}

describe.skipIf(!hasTools)("cron drift wrapper", () => {
  it("is silent and exits 0 when there is no drift", async () => {
    fakeSitesync(0, "");
    const run = await runWrapper(["-c", "/etc/sitesync.yaml"]);
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(run.log).toMatch(new RegExp(`^${TIMESTAMP} no drift\\n$`));
    expect(readFileSync(join(dir, "args"), "utf8").trim()).toBe("plan --detailed-exitcode --quiet -c /etc/sitesync.yaml");
  });

  it("exits 2 on drift, logs the plan with timestamps and prints it for cron's mail", async () => {
    fakeSitesync(2, "  + create  example.com\nPlan: 1 to create, 0 to update, 0 to delete.");
    const run = await runWrapper();
    expect(run.code).toBe(2);
    expect(run.stdout).toContain("+ create  example.com");
    expect(run.log).toMatch(new RegExp(`^${TIMESTAMP} DRIFT: `, "m"));
    expect(run.log).toMatch(new RegExp(`^${TIMESTAMP}   \\|   \\+ create  example\\.com$`, "m"));
  });

  it.each([
    [1, "ERROR (exit 1)"],
    [4, "REFUSED (exit 4)"],
    [3, "unexpected exit 3"],
  ])("passes exit %i on, logged as %s, with the message on stderr", async (code, logged) => {
    fakeSitesync(code, "error: something the user must fix");
    const run = await runWrapper();
    expect(run.code).toBe(code);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("error: something the user must fix");
    expect(run.log).toContain(logged);
  });

  it("skips the run (exit 0, one log line) while another run holds the lock", async () => {
    fakeSitesync(2, "drift");
    await holdLock();
    const run = await runWrapper();
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(run.log).toMatch(new RegExp(`^${TIMESTAMP} skipped: another drift check holds `));
    expect(existsSync(join(dir, "args"))).toBe(false);
  });

  it("loads secrets from SITESYNC_ENV_FILE and finds drift with the real CLI against the sandbox", async () => {
    const sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "example.com", privacy: 1 }] });
    try {
      // The CLI runs on the tests' own Node 24 (the machine's node may be older: DESIGN §10).
      writeFileSync(join(bin, "sitesync"), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, "bin", "sitesync.js")}" "$@"\n`);
      chmodSync(join(bin, "sitesync"), 0o755);
      writeFileSync(join(dir, "env"), `SITESYNC_API_KEY=${sandbox.apiKey}\n`, { mode: 0o600 });
      const config = join(dir, "sitesync.yaml");
      writeFileSync(config, `version: 1\nwebsites_url: ${sandbox.url}\nwebsites:\n  - domain: example.com\n    privacy: public\n`);

      const drift = await runWrapper(["-c", config], { SITESYNC_ENV_FILE: join(dir, "env") });
      expect(drift.code, drift.stderr).toBe(2);
      expect(drift.stdout).toContain("example.com");
      expect(drift.log).toContain("DRIFT");
      expect(drift.log + drift.stdout).not.toContain(sandbox.apiKey);

      sandbox.store.updateWebsite(sandbox.store.findWebsite("example.com")!.id, { privacy: 0 });
      const clean = await runWrapper(["-c", config], { SITESYNC_ENV_FILE: join(dir, "env") });
      expect(clean).toMatchObject({ code: 0, stdout: "" });
    } finally {
      await sandbox.close();
    }
  });
});
