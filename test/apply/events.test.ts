/**
 * `sitesync apply --format events` and `--events FILE` (DESIGN §7): every change's start and end as the run
 * goes, with its reason code and elapsed time, for one account and for a fleet applying side by side; every
 * line held against schemas/events.schema.json and searched for every secret of the run.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync } from "../helpers/cli.ts";
import { changeOf, eventsOf, type StreamEvent } from "../helpers/events.ts";
import { writeFiles } from "../helpers/files.ts";

const KEY = "EvApplyKey0000000000000000000000000000000000000000000000000000001";
const US_KEY = "EvApplyUsKey00000000000000000000000000000000000000000000000000002";
const PASSWORD = "s3cret-apply-events-pa55";

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  for (const sandbox of sandboxes.splice(0)) await sandbox.close();
});

async function sandbox(options: Parameters<typeof startSandbox>[0]): Promise<Sandbox> {
  const started = await startSandbox({ rateLimit: 0, ...options });
  sandboxes.push(started);
  return started;
}

/** Each planned change of `account` has one start, then one end (complete or errored) with its reason and time. */
function startsAndEnds(events: StreamEvent[], account: string): Record<string, string> {
  const planned = events.filter((e) => e.account === account && e.type === "planned_change").map(changeOf);
  const ends: Record<string, string> = {};
  for (const change of planned) {
    const mine = events.filter((e) => e.account === account && e.type.startsWith("apply_") && changeOf(e) === change);
    expect(
      mine.map((e) => e.type.replace(/_(complete|errored)$/, "_end")),
      change,
    ).toEqual(["apply_start", "apply_end"]);
    const hook = mine[1]!.hook as { reason: string; elapsed_seconds: number };
    expect(hook.elapsed_seconds).toBeGreaterThanOrEqual(0);
    ends[change] = `${mine[1]!.type} ${hook.reason}`;
  }
  return ends;
}

describe("apply --format events", () => {
  it("says each change's start and end, a refused create as apply_errored with its reason, then the counts and the exit code", async () => {
    const api = await sandbox({
      apiKey: KEY,
      websites: [{ domain: "blog.example.com", privacy: 1 }, { domain: "old.example.org" }],
      otherUsersDomains: ["taken.example.net"],
    });
    const dir = mkdtempSync(join(tmpdir(), "sitesync-apply-events-"));
    writeFiles(dir, {
      "sitesync.yaml": [
        "version: 1",
        `websites_url: ${api.url}`,
        "websites:",
        "  - domain: example.com",
        "    privacy: password",
        "    password: ${STATS_PASSWORD}",
        "  - domain: taken.example.net",
        "  - domain: blog.example.com",
        "    privacy: public",
        "  - domain: old.example.org",
        "    state: absent",
        "",
      ].join("\n"),
    });
    const result = await sitesync(["apply", "--auto-approve", "--format", "events"], {
      cwd: dir,
      env: { SITESYNC_API_KEY: KEY, STATS_PASSWORD: PASSWORD },
    });
    expect(result.code, result.stderr).toBe(3);
    const events = eventsOf(result.stdout, [KEY, PASSWORD]);

    expect(startsAndEnds(events, "")).toEqual({
      "create example.com": "apply_complete applied",
      "create taken.example.net": "apply_errored taken",
      "update blog.example.com": "apply_complete applied",
      "delete old.example.org": "apply_complete applied",
    });
    expect(events.find((e) => e.type === "apply_errored")).toMatchObject({ "@level": "error", hook: { error: expect.any(String) } });
    expect(events.filter((e) => e.type === "change_summary").map((e) => e.changes)).toEqual([
      { operation: "plan", create: 2, update: 1, delete: 1, unchanged: 0 },
      { operation: "apply", applied: 3, failed: 1, skipped: 0, unchanged: 0 },
    ]);
    expect(events.at(-1)).toMatchObject({ "@level": "error", outcome: { command: "apply", exit_code: 3 } });
  });

  it("writes a fleet's apply to --events FILE beside the text output: each account's changes, started and ended", async () => {
    const eu = await sandbox({ apiKey: KEY, websites: [{ domain: "stray.eu" }] });
    const us = await sandbox({ apiKey: US_KEY, websites: [{ domain: "cora.com", privacy: 1 }] });
    const dir = mkdtempSync(join(tmpdir(), "sitesync-apply-events-fleet-"));
    writeFiles(dir, {
      "sitesync.yaml": [
        "version: 1",
        "accounts:",
        `  eu: { websites_url: ${eu.url}, api_key_env: EU_KEY, policy: { prune: true } }`,
        `  us: { websites_url: ${us.url}, api_key_env: US_KEY }`,
        'include: ["clients/*.yaml"]',
        "",
      ].join("\n"),
      "clients/eu.yaml": "account: eu\nwebsites:\n  - domain: acme.eu\n  - domain: bolt.eu\n",
      "clients/us.yaml": "account: us\nwebsites:\n  - domain: cora.com\n    privacy: public\n",
    });
    const file = join(dir, "events.jsonl");
    const result = await sitesync(["apply", "--auto-approve", "--events", file], { cwd: dir, env: { EU_KEY: KEY, US_KEY } });
    expect(result.code, result.stderr).toBe(0);
    // The text output is as without --events.
    expect(result.stdout).toContain("── account eu");
    const events = eventsOf(readFileSync(file, "utf8"), [KEY, US_KEY]);

    expect(startsAndEnds(events, "eu")).toEqual({
      "create acme.eu": "apply_complete applied",
      "create bolt.eu": "apply_complete applied",
      "delete stray.eu": "apply_complete applied",
    });
    expect(startsAndEnds(events, "us")).toEqual({ "update cora.com": "apply_complete applied" });
    expect(events.at(-1)).toMatchObject({
      outcome: {
        exit_code: 0,
        accounts: [
          { account: "eu", exit_code: 0 },
          { account: "us", exit_code: 0 },
        ],
      },
    });
    expect(eu.store.websitesByDomain().map((w) => w.domain)).toEqual(["acme.eu", "bolt.eu"]);
  });
});
