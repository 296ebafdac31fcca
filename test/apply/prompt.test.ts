/**
 * The `Apply these changes?` prompt in a real pseudo-terminal (python3's pty module, test/helpers/_pty.py):
 * Ctrl-C, Ctrl-D and any answer but "yes" cancel with one plain line and exit 1, and nothing is sent.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { BIN, HEADER, workdir } from "../helpers/cli.ts";

const PTY = fileURLToPath(new URL("../helpers/_pty.py", import.meta.url));
const PROMPT = "Apply these changes?";

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ rateLimit: 0 });
});
afterEach(() => sandbox.close());

/** Runs `sitesync apply` on a terminal and types `keys` at the prompt. */
async function applyOnTerminal(keys: string): Promise<{ code: number; typed: boolean; output: string }> {
  const dir = workdir({ "sitesync.yaml": `${HEADER}websites:\n  - domain: new.example.com\n` });
  const env = { PATH: process.env.PATH ?? "", NO_COLOR: "1", SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
  const command = [PTY, PROMPT, JSON.stringify(keys), "--", process.execPath, BIN, "apply", "-c", join(dir, "sitesync.yaml")];
  const { stdout } = await promisify(execFile)("python3", command, { env, encoding: "utf8" });
  return JSON.parse(stdout) as { code: number; typed: boolean; output: string };
}

it.each([
  ["Ctrl-C", "\u0003"],
  ["Ctrl-D", "\u0004"],
  ["an answer other than yes", "no\r"],
])("cancels on %s at the prompt: one plain line, exit 1, nothing sent", async (_name, keys) => {
  const { code, typed, output } = await applyOnTerminal(keys);
  expect(typed).toBe(true);
  expect(output).toContain("Apply cancelled: nothing was changed.");
  expect(output).not.toMatch(/internal error|AbortError|This is a bug|\n\s+at /);
  expect(code).toBe(1);
  expect(sandbox.stats().writeRequests).toBe(0);
});

it("applies on yes, printing each finished item as a line above the progress bar", async () => {
  const { code, output } = await applyOnTerminal("yes\r");
  expect(output).toMatch(/\napplied create new\.example\.com \(id 1\)\r\n█+ 1\/1 /);
  expect(code).toBe(0);
  expect(sandbox.store.websites().map((w) => w.domain)).toEqual(["new.example.com"]);
});
