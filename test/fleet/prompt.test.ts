/**
 * An interactive apply of a fleet asks account by account (DESIGN §7 "Prompts"): each account's plan is shown,
 * then asked about, then applied, before the next account's plan is read and shown; one `yes` never approves a
 * plan not yet shown, even when the accounts are on different servers (which otherwise run side by side).
 * In a real pseudo-terminal (test/helpers/_pty.py), as prompt.test.ts does for one account.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { BIN, workdir } from "../helpers/cli.ts";
import { domainsOf } from "../helpers/domains.ts";
import { writeFiles } from "../helpers/files.ts";

const PTY = fileURLToPath(new URL("../helpers/_pty.py", import.meta.url));
const PROMPT = "Apply these changes?";
const KEYS = { SITESYNC_EU_API_KEY: "EuPromptKey".padEnd(64, "0"), SITESYNC_US_API_KEY: "UsPromptKey".padEnd(64, "0") };

let eu: Sandbox;
let us: Sandbox;
beforeEach(async () => {
  eu = await startSandbox({ apiKey: KEYS.SITESYNC_EU_API_KEY, rateLimit: 0 });
  us = await startSandbox({ apiKey: KEYS.SITESYNC_US_API_KEY, rateLimit: 0 });
});
afterEach(async () => {
  await eu.close();
  await us.close();
});

/** Runs `sitesync apply` of a two-account fleet on a terminal, typing one answer at each prompt as it shows. */
async function applyOnTerminal(answers: string[]): Promise<{ code: number; typed: boolean; output: string }> {
  const dir = workdir();
  writeFiles(dir, {
    "sitesync.yaml": [
      "version: 1",
      "accounts:",
      `  eu: { websites_url: ${eu.url}, api_key_env: SITESYNC_EU_API_KEY }`,
      `  us: { websites_url: ${us.url}, api_key_env: SITESYNC_US_API_KEY }`,
      'include: ["clients/*.yaml"]',
      "",
    ].join("\n"),
    "clients/acme.yaml": "account: eu\nwebsites:\n  - domain: acme.com\n",
    "clients/cora.yaml": "account: us\nwebsites:\n  - domain: cora.com\n",
  });
  const env = { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...KEYS };
  const command = [PTY, PROMPT, JSON.stringify(answers), "--", process.execPath, BIN, "apply", "-c", join(dir, "sitesync.yaml")];
  const { stdout } = await promisify(execFile)("python3", command, { env, encoding: "utf8" });
  return JSON.parse(stdout) as { code: number; typed: boolean; output: string };
}

it("asks account by account: the yes to the first plan applies it alone, and the next plan is shown only after it", async () => {
  const { code, typed, output } = await applyOnTerminal(["yes\r", "no\r"]);
  expect(typed, output).toBe(true);
  const first = output.indexOf(PROMPT);
  const second = output.indexOf(PROMPT, first + 1);
  // eu's plan, its prompt, its apply; only then us's plan and its own prompt.
  expect(output.indexOf("create  acme.com")).toBeLessThan(first);
  expect(output.indexOf("create  cora.com")).toBeGreaterThan(output.indexOf("applied create acme.com"));
  expect(output.indexOf("applied create acme.com")).toBeGreaterThan(first);
  expect(second).toBeGreaterThan(output.indexOf("create  cora.com"));
  expect(domainsOf(eu)).toEqual(["acme.com"]);
  // The no to us's plan: nothing sent to us, and the run fails as a cancelled one does.
  expect(us.stats().writeRequests).toBe(0);
  expect(code).toBe(1);
});
