/**
 * examples/cron/sitesync-drift.sh as cron runs it: a fake `sitesync` that exits with a chosen code, found on
 * PATH or beside an installed copy of the wrapper, and the real CLI against the sandbox under cron's
 * environment (`env -i PATH=/usr/bin:/bin`). Needs bash and flock (util-linux); skipped without them.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
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
/** cron's PATH; the machine's node there may be older than sitesync needs (DESIGN §10). */
const CRON_PATH = "/usr/bin:/bin";
const noSitesyncOnCronPath = spawnSync("sh", ["-c", "command -v sitesync"], { env: { PATH: CRON_PATH } }).status !== 0;

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

/** A `sitesync` in `folder` (default: the test's bin on PATH) that records its arguments, prints `output`, exits `code`. */
function fakeSitesync(code: number, output: string, folder = bin): void {
  const script = `#!/bin/sh\necho "$@" > "${dir}/args"\ncat <<'OUT'\n${output}\nOUT\nexit ${code}\n`;
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "sitesync"), script);
  chmodSync(join(folder, "sitesync"), 0o755);
}

/** The wrapper as `npm install` lays it out under `modules` (a node_modules folder): returns its path. */
function installedWrapper(modules: string): string {
  const copy = join(modules, "sitesync", "examples", "cron", "sitesync-drift.sh");
  mkdirSync(join(copy, ".."), { recursive: true });
  copyFileSync(WRAPPER, copy);
  chmodSync(copy, 0o755);
  return copy;
}

interface WrapperRun {
  code: number;
  stdout: string;
  stderr: string;
  log: string;
}

/**
 * Runs the wrapper with exactly `env` on top of a log and lock in the test's folder (like `env -i`); the PATH is
 * the test's bin and the machine's PATH unless `env` sets one.
 */
function runWrapper(args: string[] = [], env: Record<string, string> = {}, wrapper = WRAPPER): Promise<WrapperRun> {
  const logFile = join(dir, "logs", "drift.log");
  return new Promise((resolve, reject) => {
    const child = spawn(wrapper, args, {
      cwd: dir,
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: dir, SITESYNC_LOG: logFile, SITESYNC_LOCK: join(dir, "lock"), ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({ code: code ?? -1, stdout, stderr, log: existsSync(logFile) ? readFileSync(logFile, "utf8") : "" }),
    );
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

  it("finds the command beside an installed copy of itself when cron's PATH has no sitesync", async () => {
    // npm install -g: <prefix>/lib/node_modules/sitesync and <prefix>/bin/sitesync, reached through a symlink.
    const prefix = join(dir, "global");
    const global = installedWrapper(join(prefix, "lib", "node_modules"));
    fakeSitesync(2, "drift from the global install", join(prefix, "bin"));
    symlinkSync(global, join(bin, "sitesync-drift"));
    const viaLink = await runWrapper([], { PATH: CRON_PATH }, join(bin, "sitesync-drift"));
    expect(viaLink.code, viaLink.stderr).toBe(2);
    expect(viaLink.stdout).toContain("drift from the global install");

    // npm install in a project: <project>/node_modules/sitesync and <project>/node_modules/.bin/sitesync.
    const local = installedWrapper(join(dir, "project", "node_modules"));
    fakeSitesync(0, "", join(dir, "project", "node_modules", ".bin"));
    const fromProject = await runWrapper(["-c", "sitesync.yaml"], { PATH: CRON_PATH }, local);
    expect(fromProject).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(readFileSync(join(dir, "args"), "utf8").trim()).toBe("plan --detailed-exitcode --quiet -c sitesync.yaml");
  });

  it.skipIf(!noSitesyncOnCronPath)("exits 1 naming SITESYNC_BIN when no sitesync can be found", async () => {
    const run = await runWrapper([], { PATH: CRON_PATH });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("cannot run `sitesync` (PATH is /usr/bin:/bin)");
    expect(run.stderr).toContain("npm install -g sitesync");
    expect(run.stderr).toContain("SITESYNC_BIN=");
    expect(run.log).toMatch(new RegExp(`^${TIMESTAMP} ERROR \\(exit 1\\): sitesync-drift: cannot run`));
  });

  it("mails what to fix for a missing SITESYNC_ENV_FILE, not bash's own error, and runs nothing", async () => {
    fakeSitesync(0, "");
    const missing = join(dir, "no-such-env");
    const run = await runWrapper([], { SITESYNC_ENV_FILE: missing });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `sitesync-drift: SITESYNC_ENV_FILE is ${missing}, which is not a readable file: create it (VAR=value lines such as SITESYNC_API_KEY=..., chmod 600), or fix the path in the crontab\n`,
    );
    expect(run.log).toMatch(new RegExp(`^${TIMESTAMP} ERROR \\(exit 1\\): sitesync-drift: SITESYNC_ENV_FILE is `));
    expect(existsSync(join(dir, "args"))).toBe(false);
  });

  it("hints at SITESYNC_BIN when the Node on cron's PATH is too old for sitesync", async () => {
    fakeSitesync(1, "sitesync needs Node 22.12 or later (it is tested on Node 22 and 24); this is Node v20.20.2 at /usr/bin/node");
    const run = await runWrapper();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("this is Node v20.20.2");
    expect(run.stderr).toContain("cannot run sitesync; set SITESYNC_BIN in SITESYNC_ENV_FILE to a Node 22.12 or later and sitesync's bin");
    expect(run.log).toContain("SITESYNC_BIN=");
  });

  it("exits 1, not 127, when the command is there but cannot start (no node on cron's PATH)", async () => {
    writeFileSync(join(bin, "sitesync"), "#!/usr/bin/env sitesync-no-such-node\n");
    chmodSync(join(bin, "sitesync"), 0o755);
    const run = await runWrapper([], { PATH: `${bin}:${CRON_PATH}` });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("sitesync-no-such-node");
    expect(run.stderr).toContain("set SITESYNC_BIN");
    expect(run.log).toContain("ERROR (exit 127)");
  });

  it("under env -i PATH=/usr/bin:/bin, runs the real CLI named by SITESYNC_BIN in the env file against the sandbox", async () => {
    const sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "example.com", privacy: 1 }] });
    try {
      // A command with arguments: the tests' own Node 24 (cron's /usr/bin/node may be too old) and the bin.
      const command = `${realpathSync(process.execPath)} ${join(ROOT, "bin", "sitesync.js")}`;
      writeFileSync(join(dir, "env"), `SITESYNC_API_KEY=${sandbox.apiKey}\nSITESYNC_BIN="${command}"\n`, { mode: 0o600 });
      const config = join(dir, "sitesync.yaml");
      writeFileSync(config, `version: 1\nwebsites_url: ${sandbox.url}\nwebsites:\n  - domain: example.com\n    privacy: public\n`);
      const cron = { PATH: CRON_PATH, SITESYNC_ENV_FILE: join(dir, "env") };

      const drift = await runWrapper(["-c", config], cron);
      expect(drift.code, drift.stderr).toBe(2);
      expect(drift.stdout).toContain("example.com");
      expect(drift.log).toContain("DRIFT");
      expect(drift.log + drift.stdout).not.toContain(sandbox.apiKey);

      sandbox.store.updateWebsite(sandbox.store.findWebsite("example.com")!.id, { privacy: 0 });
      const clean = await runWrapper(["-c", config], cron);
      expect(clean).toMatchObject({ code: 0, stdout: "" });
    } finally {
      await sandbox.close();
    }
  });
});
