/**
 * `sitesync plan --format events` and `--events FILE` (DESIGN §7), as a log pipeline reads them: the real CLI
 * against sandboxes over real HTTP, every line held against schemas/events.schema.json and searched for
 * every secret of the run, for one account and for a fleet.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync, startSitesync } from "../helpers/cli.ts";
import { changeOf, eventsOf } from "../helpers/events.ts";
import { writeFiles } from "../helpers/files.ts";

const KEY = "EvPlanKey00000000000000000000000000000000000000000000000000000001";
const US_KEY = "EvPlanUsKey000000000000000000000000000000000000000000000000000002";
const PASSWORD = "s3cret-events-pa55word";
const LITERAL = "Lit3ral-passw0rd-in-the-file";

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  for (const sandbox of sandboxes.splice(0)) await sandbox.close();
});

async function sandbox(options: Parameters<typeof startSandbox>[0]): Promise<Sandbox> {
  const started = await startSandbox({ rateLimit: 0, ...options });
  sandboxes.push(started);
  return started;
}

describe("plan --format events", () => {
  it("prints one valid event per line: each change at its line, the counts, the exit code, and no secret", async () => {
    const api = await sandbox({ apiKey: KEY, websites: [{ domain: "blog.example.com", privacy: 1 }, { domain: "old.example.org" }] });
    const dir = mkdtempSync(join(tmpdir(), "sitesync-events-"));
    writeFiles(dir, {
      "sitesync.yaml": [
        "version: 1",
        `websites_url: ${api.url}`,
        "websites:",
        "  - domain: example.com",
        "    privacy: password",
        "    password: ${STATS_PASSWORD}",
        "  - domain: blog.example.com",
        "    privacy: password",
        `    password: ${LITERAL}`,
        "  - domain: old.example.org",
        "    state: absent",
        "",
      ].join("\n"),
    });
    const result = await sitesync(["plan", "--format", "events"], {
      cwd: dir,
      env: { SITESYNC_API_KEY: KEY, STATS_PASSWORD: PASSWORD },
    });
    expect(result.code, result.stderr).toBe(0);
    const events = eventsOf(result.stdout, [KEY, PASSWORD, LITERAL]);

    expect(events.map((e) => e.type)).toEqual([
      "version",
      "diagnostic",
      "plan_started",
      "read_progress",
      "planned_change",
      "planned_change",
      "planned_change",
      "change_summary",
      "outcome",
    ]);
    // The password written into the file is a warning at its line, never quoted.
    expect(events[1]).toMatchObject({ "@level": "warn", diagnostic: { severity: "warning", range: { start: { line: 9 } } } });
    expect(
      events.filter((e) => e.type === "planned_change").map((e) => [changeOf(e), (e.change as { source?: { line: number } }).source?.line]),
    ).toEqual([
      ["create example.com", 4],
      ["update blog.example.com", 7],
      ["delete old.example.org", 10],
    ]);
    const summary = events.find((e) => e.type === "change_summary");
    expect(summary).toMatchObject({ account: "", changes: { operation: "plan", create: 1, update: 1, delete: 1 } });
    expect(events.at(-1)).toMatchObject({ outcome: { command: "plan", exit_code: 0, accounts: [{ account: "", exit_code: 0 }] } });
    // stdout holds the events alone.
    expect(result.stdout).not.toContain("Plan:  ");
  });

  it("writes a fleet's events to --events FILE beside --format json: each account's, and the waits for a server's rate limit", async () => {
    const eu = await sandbox({ apiKey: KEY, websites: [{ domain: "stray.eu" }] });
    // Four pages at two requests a second: the run paces its reads, and says so.
    const us = await sandbox({ apiKey: US_KEY, seed: 350, rateLimit: 2, rateWindowMs: 1000 });
    const dir = mkdtempSync(join(tmpdir(), "sitesync-events-fleet-"));
    writeFiles(dir, {
      "sitesync.yaml": [
        "version: 1",
        "accounts:",
        `  eu: { websites_url: ${eu.url}, api_key_env: EU_KEY }`,
        `  us: { websites_url: ${us.url}, api_key_env: US_KEY }`,
        'include: ["clients/*.yaml"]',
        "",
      ].join("\n"),
      "clients/eu.yaml": "account: eu\nwebsites:\n  - domain: acme.eu\n",
      "clients/us.yaml": "account: us\nwebsites:\n  - domain: cora.com\n",
    });
    const file = join(dir, "events.jsonl");
    const result = await sitesync(["plan", "--format", "json", "--events", file, "--rate-window", "1s", "--detailed-exitcode"], {
      cwd: dir,
      env: { EU_KEY: KEY, US_KEY },
    });
    expect(result.code, result.stderr).toBe(2);
    // The JSON document is stdout's, as without --events.
    expect(JSON.parse(result.stdout)).toMatchObject({ format: "sitesync-accounts" });
    const events = eventsOf(readFileSync(file, "utf8"), [KEY, US_KEY]);

    expect(events.filter((e) => e.type === "plan_started").map((e) => e.account)).toEqual(["eu", "us"]);
    const of = (account: string) => events.filter((e) => e.account === account && e.type === "planned_change").map(changeOf);
    expect(of("eu")).toEqual(["create acme.eu"]);
    expect(of("us")).toEqual(["create cora.com"]);
    expect(events.filter((e) => e.type === "read_progress" && e.account === "us").at(-1)).toMatchObject({
      progress: { kind: "page", pages_read: 4, pages_total: 4 },
    });
    const waits = events.filter((e) => e.type === "rate_wait");
    expect(waits.length).toBeGreaterThan(0);
    for (const wait of waits) expect(wait).toMatchObject({ account: "us", wait: { cause: "pacing", limit: 2, window_seconds: 1 } });
    expect(events.at(-1)).toMatchObject({
      outcome: {
        exit_code: 2,
        accounts: [
          { account: "eu", exit_code: 2 },
          { account: "us", exit_code: 2 },
        ],
      },
    });
  });

  it("refuses --events at a path it cannot write, before any request", async () => {
    const api = await sandbox({ apiKey: KEY });
    const dir = mkdtempSync(join(tmpdir(), "sitesync-events-bad-"));
    writeFiles(dir, { "sitesync.yaml": `version: 1\nwebsites_url: ${api.url}\nwebsites: []\n` });
    const result = await sitesync(["plan", "--events", join(dir, "no", "such", "dir", "e.jsonl")], {
      cwd: dir,
      env: { SITESYNC_API_KEY: KEY },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--events");
    expect(api.requests).toHaveLength(0);
  });

  it("ends as it would have when its reader goes away (`| head -1`): its exit code, no EPIPE stack trace", async () => {
    const api = await sandbox({ apiKey: KEY, seed: 300, latencyMs: 50 });
    const dir = mkdtempSync(join(tmpdir(), "sitesync-events-"));
    writeFiles(dir, { "sitesync.yaml": `version: 1\nwebsites_url: ${api.url}\nwebsites:\n  - domain: new.example.com\n` });
    const run = startSitesync(["plan", "--format", "events", "--detailed-exitcode"], { cwd: dir, env: { SITESYNC_API_KEY: KEY } });
    // The reader takes the first line (the version event, written before any request) and closes the pipe.
    run.child.stdout!.once("data", () => run.child.stdout!.destroy());
    const result = await run.done;
    expect(result.stderr).not.toContain("EPIPE");
    expect(result.code, result.stderr).toBe(2);
    expect(api.requests.length).toBeGreaterThan(1);
  });
});
