/**
 * Ctrl-C and SIGTERM during an apply, through the real CLI against a sandbox (DESIGN §7): the first signal
 * stops sending, lets the requests in flight finish, prints the summary and writes a complete results file,
 * then exits 130/143; a rerun converges. The tests synchronise on the run's own progress, not on time
 * (STYLE 17): the sandbox answers the first two creates, then holds the others until the signal has been received.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApplyReport } from "../../src/run/types.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, startSitesync, workdir } from "../helpers/cli.ts";

let sandbox: Sandbox;
let env: Record<string, string>;
let release: () => void;

beforeEach(async () => {
  const held = Promise.withResolvers<void>();
  release = held.resolve;
  let creates = 0;
  const beforeAnswer = ({ method }: { method: string }) => (method === "POST" && ++creates > 2 ? held.promise : undefined);
  sandbox = await startSandbox({ rateLimit: 0, beforeAnswer });
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
});
afterEach(() => {
  release();
  return sandbox.close();
});

const DOMAINS = Array.from({ length: 16 }, (_, i) => `site-${String(i + 1).padStart(2, "0")}.example.com`);
const config = `${HEADER}websites:\n${DOMAINS.map((d) => `  - domain: ${d}\n`).join("")}`;
const APPLY = ["apply", "--auto-approve", "--concurrency", "2", "--results", "results.json"];

/** The results file is complete: every planned change is there, applied or not started, as the account shows. */
function expectCompleteResults(dir: string): ApplyReport {
  const report = JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as ApplyReport;
  expect(report.items.map((item) => item.change.kind === "website" && item.change.domain).sort()).toEqual(DOMAINS);
  const applied = report.items.filter((item) => item.status === "applied");
  const notStarted = report.items.filter((item) => item.status === "skipped" && item.note?.startsWith("not started"));
  expect(applied.length + notStarted.length).toBe(DOMAINS.length);
  expect(applied.length).toBeGreaterThan(0);
  expect(notStarted.length).toBeGreaterThan(0);
  expect(
    sandbox.store
      .websites()
      .map((w) => w.domain)
      .sort(),
  ).toEqual(applied.map((i) => i.change.kind === "website" && i.change.domain).sort());
  // Written atomically: no temporary file is left beside it.
  expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  return report;
}

describe.each([
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const)("%s during apply", (signal, code) => {
  it(`stops sending, finishes what is in flight, writes the results and exits ${code}; a rerun converges`, async () => {
    const dir = workdir({ "sitesync.yaml": config });
    const running = startSitesync(APPLY, { env, cwd: dir });
    await running.waitForStderr(/applied .*site-/);
    running.child.kill(signal);
    await running.waitForStderr(new RegExp(`${signal} received`));
    release();
    const result = await running.done;
    expect(result.stderr).not.toContain("internal error");
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(`${signal} received: stopping after the requests in flight`);
    const report = expectCompleteResults(dir);
    const applied = report.items.filter((item) => item.status === "applied").length;
    expect(result.stderr).toContain(
      `Interrupted by ${signal}: ${applied} applied, 0 failed, ${DOMAINS.length - applied} not started; results written to results.json. Run apply again to finish.`,
    );

    const rerun = await sitesync(APPLY, { env, cwd: dir });
    expect(rerun.code).toBe(0);
    expect(
      sandbox.store
        .websites()
        .map((w) => w.domain)
        .sort(),
    ).toEqual(DOMAINS);
    expect((await sitesync(["plan", "--detailed-exitcode"], { env, cwd: dir })).code).toBe(0);
  });
});

it("exits at once on a second SIGINT, leaving no empty results file", async () => {
  const dir = workdir({ "sitesync.yaml": config });
  const running = startSitesync(APPLY, { env, cwd: dir });
  await running.waitForStderr(/applied .*site-/);
  running.child.kill("SIGINT");
  await running.waitForStderr(/SIGINT received/);
  running.child.kill("SIGINT");
  const result = await running.done;
  expect(result.code).toBe(130);
  expect(result.stderr).not.toContain("Interrupted by SIGINT:");
  // Either not written yet, or written whole: never a 0-byte file from the early writability check.
  if (existsSync(join(dir, "results.json"))) expectCompleteResults(dir);
});

it("exits 130 on a SIGINT while the account is still being read, not 1, and changes nothing", async () => {
  const reading = Promise.withResolvers<void>();
  const held = Promise.withResolvers<void>();
  let reads = 0;
  // Two pages of websites: the first is held until the signal was received, so the second is never sent.
  const slow = await startSandbox({
    rateLimit: 0,
    seed: 150,
    beforeAnswer: ({ method }) => {
      if (method !== "GET" || ++reads > 1) return undefined;
      reading.resolve();
      return held.promise;
    },
  });
  try {
    const dir = workdir({ "sitesync.yaml": config });
    const running = startSitesync(APPLY, { env: { SITESYNC_API_KEY: slow.apiKey, SITESYNC_WEBSITES_URL: slow.url }, cwd: dir });
    await reading.promise;
    running.child.kill("SIGINT");
    await running.waitForStderr(/SIGINT received/);
    held.resolve();
    const result = await running.done;
    expect(result.stderr).not.toMatch(/internal error|This is a bug/);
    expect(result.code).toBe(130);
    expect(result.stderr).toContain("not sent: the run was interrupted by SIGINT");
    expect(slow.stats().writeRequests).toBe(0);
  } finally {
    held.resolve();
    await slow.close();
  }
});
