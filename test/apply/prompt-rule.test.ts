/**
 * One prompt rule (DESIGN §7 "Prompts"): `apply` asks on a terminal and, without one, refuses unless
 * `--auto-approve`, for a fresh plan and a saved one alike. Off a terminal (`< /dev/null`, a CI step) it fails
 * once, naming the flag, before any request; on a real pseudo-terminal (test/helpers/_pty.py) a saved plan is
 * shown as a fresh plan confirms it, then asked about.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { BIN, HEADER, sitesync, workdir } from "../helpers/cli.ts";

const PTY = fileURLToPath(new URL("../helpers/_pty.py", import.meta.url));
const PROMPT = "Apply these changes?";
const REFUSAL =
  "error: apply asks before changing the account, and there is no terminal to ask on: pass --auto-approve to apply without asking (CI, cron, scripts); nothing was sent\n";
const CONFIG = `${HEADER}websites:\n  - domain: new.example.com\n  - domain: old.example.com\n    state: absent\n`;

let sandbox: Sandbox;
let env: Record<string, string>;
let dir: string;
beforeEach(async () => {
  sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "old.example.com" }] });
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
  dir = workdir({ "sitesync.yaml": CONFIG });
  const saved = await sitesync(["plan", "--out", "plan.json"], { env, cwd: dir });
  expect(saved.code, saved.stderr).toBe(0);
  sandbox.resetLog();
});
afterEach(() => sandbox.close());

it.each([
  ["a saved plan", ["apply", "plan.json"]],
  ["a fresh plan", ["apply"]],
  ["a reviewed plan", ["apply", "--reviewed", "plan.json"]],
])("refuses %s off a terminal before any request, naming --auto-approve", async (_what, args) => {
  const result = await sitesync(args, { env, cwd: dir });
  expect(result.code).toBe(1);
  expect(result.stdout).toBe("");
  expect(result.stderr).toBe(REFUSAL);
  expect(sandbox.requests).toHaveLength(0);
  expect(sandbox.store.websites().map((w) => w.domain)).toEqual(["old.example.com"]);
});

it("applies a saved plan off a terminal with --auto-approve", async () => {
  const result = await sitesync(["apply", "plan.json", "--auto-approve"], { env, cwd: dir });
  expect(result.code, result.stderr).toBe(0);
  expect(sandbox.store.websites().map((w) => w.domain)).toEqual(["new.example.com"]);
});

/** `sitesync apply plan.json` on a terminal, typing `keys` at the prompt. */
async function applySavedOnTerminal(keys: string): Promise<{ code: number; typed: boolean; output: string }> {
  const command = [
    PTY,
    PROMPT,
    JSON.stringify(keys),
    "--",
    process.execPath,
    BIN,
    "apply",
    join(dir, "plan.json"),
    "-c",
    join(dir, "sitesync.yaml"),
  ];
  const { stdout } = await promisify(execFile)("python3", command, {
    env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...env },
    encoding: "utf8",
  });
  return JSON.parse(stdout) as { code: number; typed: boolean; output: string };
}

it("asks before applying a saved plan on a terminal, after showing what it will apply: no sends nothing", async () => {
  const { code, typed, output } = await applySavedOnTerminal("no\r");
  expect(typed, output).toBe(true);
  expect(output.indexOf("+ create  new.example.com")).toBeGreaterThan(-1);
  expect(output.indexOf("- delete  old.example.com")).toBeLessThan(output.indexOf(PROMPT));
  expect(output).toContain("Apply cancelled: nothing was changed.");
  expect(code).toBe(1);
  expect(sandbox.stats().writeRequests).toBe(0);
});

it("applies a saved plan on a terminal once the answer is yes", async () => {
  const { code, typed, output } = await applySavedOnTerminal("yes\r");
  expect(typed, output).toBe(true);
  expect(code, output).toBe(0);
  expect(sandbox.store.websites().map((w) => w.domain)).toEqual(["new.example.com"]);
});

it("with --auto-approve shows the plan it applies on stderr, and with --quiet prints only the results", async () => {
  const quiet = await sitesync(["apply", "--auto-approve", "--quiet"], { env, cwd: dir });
  expect(quiet.code, quiet.stderr).toBe(0);
  expect(quiet.stderr).toBe("");
  expect(quiet.stdout).toMatch(/^Apply complete\./);
  expect(sandbox.store.websites().map((w) => w.domain)).toEqual(["new.example.com"]);
  writeFileSync(join(dir, "sitesync.yaml"), `${HEADER}websites:\n  - domain: new.example.com\n  - domain: next.example.com\n`);
  const shown = await sitesync(["apply", "--auto-approve"], { env, cwd: dir });
  expect(shown.code, shown.stderr).toBe(0);
  expect(shown.stderr).toContain("+ create  next.example.com");
});
