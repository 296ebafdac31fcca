/**
 * The results file is data (DESIGN §9: reason codes, not English): every item carries a reason code and its detail beside the words a
 * person reads, and an interrupted run says so at the top level. Through the real CLI against the sandbox
 * over real HTTP.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ApplyReport } from "../../src/run/types.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, startSitesync, workdir } from "../helpers/cli.ts";

let sandbox: Sandbox;
afterEach(() => sandbox.close());

const results = (dir: string) => JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as ApplyReport;
const domainOf = (item: ApplyReport["items"][number]) => (item.change.kind === "website" ? item.change.domain : item.change.project);

describe("reason codes in the results file", () => {
  it("codes each item of a saved plan applied twice, stale and already applied told apart", async () => {
    sandbox = await startSandbox({
      rateLimit: 0,
      websites: [{ domain: "drift.example.com", privacy: 1 }, { domain: "moved.example.com" }],
    });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const config = `${HEADER}websites:\n  - domain: drift.example.com\n    privacy: public\n  - domain: moved.example.com\n    email: true\n  - domain: new.example.com\n`;
    const dir = workdir({ "sitesync.yaml": config });
    expect((await sitesync(["plan", "--out", "plan.json"], { env, cwd: dir })).code).toBe(0);
    const first = await sitesync(["apply", "plan.json", "--results", "results.json", "--auto-approve"], { env, cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    expect(results(dir).items.map((i) => [domainOf(i), i.status, i.reason])).toEqual([
      ["new.example.com", "applied", "applied"],
      ["drift.example.com", "applied", "applied"],
      ["moved.example.com", "applied", "applied"],
    ]);
    expect(results(dir).interrupted).toBeUndefined();

    // Someone changes moved.example.com in the web UI; the same plan is applied again. (Not back to exactly
    // what the plan read: then only updated_at, to the second, would tell, and the test would hang on the clock.)
    const moved = sandbox.store.findWebsite("moved.example.com")!;
    sandbox.store.updateWebsite(moved.id, { email: 0, exclude_bots: 0 });
    const second = await sitesync(["apply", "plan.json", "--results", "results.json", "--auto-approve"], { env, cwd: dir });
    expect(second.code).toBe(4);
    const items = results(dir).items;
    expect(items.map((i) => [domainOf(i), i.status, i.reason, i.detail])).toEqual([
      ["moved.example.com", "skipped", "stale", { why: "live-changed" }],
      ["new.example.com", "skipped", "already-applied", { evidence: "exists", id: expect.any(Number) }],
      ["drift.example.com", "skipped", "already-applied", { evidence: "has-values" }],
    ]);
    // The words are there for people, chosen by the renderer from the code.
    expect(items[0]!.note).toBe("stale: moved.example.com changed since the plan");
    expect(second.stderr).toContain("1 change was stale and skipped: plan again to review it");
    expect(results(dir).counts).toMatchObject({ applied: 0, failed: 0, skipped: 3 });
  });

  it("records a stop signal for the whole run, and lists the changes not started once", async () => {
    sandbox = await startSandbox({ rateLimit: 0, latencyMs: 150 });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const domains = Array.from({ length: 12 }, (_, i) => `site-${String(i + 1).padStart(2, "0")}.example.com`);
    const dir = workdir({ "sitesync.yaml": `${HEADER}websites:\n${domains.map((d) => `  - domain: ${d}\n`).join("")}` });
    const running = startSitesync(["apply", "--auto-approve", "--concurrency", "2", "--results", "results.json"], { env, cwd: dir });
    await running.waitForStderr(/applied .*site-/);
    running.child.kill("SIGINT");
    const result = await running.done;
    expect(result.code).toBe(130);
    const report = results(dir);
    expect(report.interrupted).toBe("SIGINT");
    const notStarted = report.items.filter((i) => i.reason === "not-started");
    expect(notStarted.length).toBeGreaterThan(0);
    expect(notStarted.every((i) => i.status === "skipped" && JSON.stringify(i.detail) === '{"signal":"SIGINT"}')).toBe(true);
    // Said once: a count in the closing report, not one line per change on stdout and again on stderr.
    const output = result.stdout + result.stderr;
    expect(output.match(/not started/g)?.length).toBe(2);
    expect(result.stdout).toContain(
      `− ${notStarted.length} change${notStarted.length === 1 ? "" : "s"} not started: the run was interrupted by SIGINT`,
    );
    expect(result.stderr).toContain(`${notStarted.length} not started; results written to results.json`);
  });
});

describe("a refused run", () => {
  it("prints a refusal's reason once, and leaves no empty results file behind", async () => {
    sandbox = await startSandbox({
      rateLimit: 0,
      websites: [{ domain: "drift.example.com", privacy: 1 }, { domain: "a.example.org" }, { domain: "b.example.org" }],
    });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const config = `${HEADER}policy:\n  prune: true\n  max_deletes: 1\nwebsites:\n  - domain: drift.example.com\n`;
    const dir = workdir({ "sitesync.yaml": config });
    for (const command of [["plan"], ["apply", "--auto-approve", "--results", "results.json"]]) {
      const result = await sitesync(command, { env, cwd: dir });
      expect(result.code).toBe(4);
      const output = result.stdout + result.stderr;
      expect(output.split("more than the limit of 1").length - 1, output).toBe(1);
    }
    expect(existsSync(join(dir, "results.json"))).toBe(false);
  });
});
