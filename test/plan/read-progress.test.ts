/**
 * Nothing is silent while reading (DESIGN §5), through the real CLI against a throttled sandbox:
 * on a terminal a live line with pages read of total and the wait; in CI (no terminal) one line per wait of
 * a second or more, naming the limit and the server.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { BIN, HEADER, sitesync, workdir } from "../helpers/cli.ts";

const PTY = fileURLToPath(new URL("../helpers/_pty.py", import.meta.url));

let sandbox: Sandbox;
// 6 pages at 4 requests per 2 s: the read waits for the rate limit at least once.
beforeEach(async () => {
  sandbox = await startSandbox({ seed: 600, rateLimit: 4, rateWindowMs: 2000 });
});
afterEach(() => sandbox.close());

const config = () => workdir({ "sitesync.yaml": `${HEADER}websites:\n  - domain: site-00001.example.com\n` });
const args = ["plan", "--rate-window", "2s"];

it("in CI, says each wait for the rate limit as one line naming the limit and the server", async () => {
  const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
  const result = await sitesync(args, { env, cwd: config() });
  expect(result.code, result.stderr).toBe(0);
  const waits = result.stderr.split("\n").filter((line) => line.startsWith("waiting"));
  expect(waits.length).toBeGreaterThanOrEqual(1);
  // How long the gate will wait (up to the 2 s window), the limit and window it paces by, and the server.
  expect(waits[0]).toMatch(new RegExp(`^waiting [12]s for the rate limit \\(4/2s at ${sandbox.url.replaceAll(".", "\\.")}\\)$`));
  // No live line without a terminal.
  expect(result.stderr).not.toContain("\r");
  // One window's wait from a fresh window, two from a spent one (DESIGN §5: a range where the window stands is unknown).
  expect(result.stdout).toContain("≈ 6 requests: 6 reads, 0 writes; about 2–4 s at 4/2s.");
});

it("on a terminal, keeps a live line with the pages read of total and the wait", async () => {
  const env = { PATH: process.env.PATH ?? "", NO_COLOR: "1", SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
  const command = [PTY, "never typed", '""', "--", process.execPath, BIN, ...args, "-c", join(config(), "sitesync.yaml")];
  const { stdout } = await promisify(execFile)("python3", command, { env, encoding: "utf8" });
  const { code, output } = JSON.parse(stdout) as { code: number; output: string };
  expect(code, output).toBe(0);
  expect(output).toContain("reading websites: 1 of 6 pages");
  expect(output).toMatch(/reading websites: \d of 6 pages · waiting [12]s for the rate limit \(4\/2s at http:\/\/127\.0\.0\.1:\d+\)/);
  // The live line is erased before the plan is printed: the plan's lines start clean.
  // (Its first line names the account it read: DESIGN §2.)
  expect(output).toContain("\r\u001b[KAccount: http://127.0.0.1:");
  expect(output).toContain("No changes.");
});
