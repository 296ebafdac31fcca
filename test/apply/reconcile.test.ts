/** The main job, end to end: the real CLI against the sandbox over real HTTP. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/plan/types.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, workdir } from "../helpers/cli.ts";

let sandbox: Sandbox;
let env: Record<string, string>;

beforeEach(async () => {
  sandbox = await startSandbox({
    rateLimit: 0,
    websites: [
      { domain: "keep.example.com", privacy: 0, email: 0, exclude_bots: 1 },
      { domain: "drift.example.com", privacy: 1, email: 0, exclude_bots: 0, exclude_ips: "10.0.0.1\n10.0.0.2" },
      { domain: "gone.example.com" },
      { domain: "unlisted.example.org" },
    ],
    projects: [{ project: "keep.example.com" }, { project: "old.example.com" }],
  });
  env = {
    SITESYNC_API_KEY: sandbox.apiKey,
    SITESYNC_WEBSITES_URL: sandbox.url,
    SITESYNC_PROJECTS_URL: sandbox.url,
    STATS_PW: "hunter2-but-longer",
  };
});
afterEach(() => sandbox.close());

const config =
  HEADER +
  `websites:
  - domain: KEEP.example.com.
    privacy: public
  - domain: https://www.drift.example.com/
    privacy: password
    password: \${STATS_PW}
    exclude_bots: true
    exclude_ips: [10.0.0.2, 10.0.0.1, 192.0.2.0/24]
  - domain: new.example.com
    favorite: true
    exclude_params: [utm_source]
  - domain: gone.example.com
    state: absent
projects:
  - project: keep.example.com
  - project: old.example.com
    state: absent
`;

describe("plan → apply → plan", () => {
  it("converges, and the second plan shows no changes", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    const before = await sitesync(["plan", "--detailed-exitcode"], { env, cwd: dir });
    expect(before.stderr).not.toContain("error");
    expect(before.code).toBe(2);
    expect(before.stdout).toContain("+ create  new.example.com");
    expect(before.stdout).toContain("~ update  drift.example.com");
    expect(before.stdout).toContain("privacy: private → password");
    expect(before.stdout).toContain("- delete  gone.example.com");
    expect(before.stdout).toContain("destroys its collected statistics");
    expect(before.stdout).not.toContain("keep.example.com (id");
    expect(sandbox.stats().writeRequests).toBe(0);

    const applied = await sitesync(["apply", "--auto-approve", "--verify"], { env, cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain("Verified: the account matches the configuration.");

    const after = await sitesync(["plan", "--detailed-exitcode"], { env, cwd: dir });
    expect(after.code, after.stdout + after.stderr).toBe(0);
    expect(after.stdout).toContain("No changes.");

    const created = sandbox.store.websites().find((w) => w.domain === "new.example.com");
    expect(created?.favorited_at).not.toBeNull();
    expect(created?.exclude_params).toBe("utm_source");
    const drift = sandbox.store.websites().find((w) => w.domain === "drift.example.com");
    expect(drift).toMatchObject({ privacy: 2, password: "hunter2-but-longer", exclude_bots: 1 });
    expect(sandbox.store.websites().map((w) => w.domain)).toContain("unlisted.example.org");
    expect(sandbox.store.websites().map((w) => w.domain)).not.toContain("gone.example.com");
  });

  it("refuses to apply without --auto-approve when not on a terminal, and writes nothing", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    const result = await sitesync(["apply"], { env, cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--auto-approve");
    expect(sandbox.stats().writeRequests).toBe(0);
  });

  it("applies a saved plan, and refuses it once the config changed", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    const planned = await sitesync(["plan", "--out", "plan.json"], { env, cwd: dir });
    expect(planned.code, planned.stderr).toBe(0);
    const saved = readFileSync(join(dir, "plan.json"), "utf8");
    expect(saved).not.toContain("hunter2-but-longer");

    const applied = await sitesync(["apply", "plan.json", "--results", "results.json", "--auto-approve"], { env, cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));
    expect(results.counts).toMatchObject({ applied: 4, failed: 0, skipped: 0, unchanged: 2 });

    const edited = workdir({ "sitesync.yaml": config.replace("privacy: public", "privacy: private") });
    await sitesync(["plan", "--out", "plan.json"], { env, cwd: edited });
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(edited, "sitesync.yaml"), config);
    const refused = await sitesync(["apply", "plan.json", "--auto-approve"], { env, cwd: edited });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain("changed since the plan was saved");
  });

  it("skips the stale items of a saved plan and exits 4", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    await sitesync(["plan", "--out", "plan.json"], { env, cwd: dir });
    const drift = sandbox.store.websites().find((w) => w.domain === "drift.example.com")!;
    sandbox.store.updateWebsite(drift.id, { email: 1 });
    sandbox.resetLog();

    const applied = await sitesync(["apply", "plan.json", "--auto-approve"], { env, cwd: dir });
    expect(applied.code).toBe(4);
    expect(applied.stdout).toContain("stale: drift.example.com changed since the plan");
    expect(sandbox.requests.filter((r) => r.method === "PUT" && r.path.endsWith(`/${drift.id}`))).toHaveLength(0);
    expect(sandbox.store.websites().some((w) => w.domain === "new.example.com")).toBe(true);
  });
});

describe("saved plans refuse what was not reviewed", () => {
  it("refuses a saved plan against another account, even an identical copy", async () => {
    const twin = await startSandbox({
      rateLimit: 0,
      apiKey: sandbox.apiKey,
      websites: sandbox.store.websites().map((w) => ({ ...w, exclude_ips: w.exclude_ips })),
    });
    try {
      const dir = workdir({ "sitesync.yaml": config });
      expect((await sitesync(["plan", "--out", "plan.json"], { env, cwd: dir })).code).toBe(0);
      const other = await sitesync(["apply", "plan.json", "--websites-url", twin.url, "--auto-approve"], { env, cwd: dir });
      expect(other.code).toBe(4);
      expect(other.stderr).toContain(`the plan was made against ${sandbox.url}`);
      expect(twin.stats().writeRequests).toBe(0);
    } finally {
      await twin.close();
    }
  });

  it("refuses a saved plan against another projects account, like one against another websites account", async () => {
    const twin = await startSandbox({ rateLimit: 0, apiKey: sandbox.apiKey, projects: [...sandbox.store.projects()] });
    try {
      const dir = workdir({ "sitesync.yaml": config });
      expect((await sitesync(["plan", "--out", "plan.json"], { env, cwd: dir })).code).toBe(0);
      sandbox.resetLog();
      const other = await sitesync(["apply", "plan.json", "--projects-url", twin.url, "--auto-approve"], { env, cwd: dir });
      expect(other.code).toBe(4);
      expect(other.stderr).toContain(`the plan was made against ${sandbox.url}`);
      expect(twin.stats().writeRequests).toBe(0);
      expect(sandbox.stats().writeRequests).toBe(0);
    } finally {
      await twin.close();
    }
  });

  it("refuses a saved plan edited by hand (one value changed, still a valid plan), and writes nothing", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    expect((await sitesync(["plan", "--out", "plan.json"], { env, cwd: dir })).code).toBe(0);
    const saved = JSON.parse(readFileSync(join(dir, "plan.json"), "utf8")) as Plan;
    const update = saved.changes.find((c) => c.action === "update" && c.kind === "website" && c.domain === "drift.example.com");
    const bots = update?.action === "update" ? update.fields.find((f) => f.field === "exclude_bots") : undefined;
    expect(bots).toMatchObject({ before: 0, after: 1 });
    bots!.after = 0;
    writeFileSync(join(dir, "plan.json"), JSON.stringify(saved, null, 2));

    const edited = await sitesync(["apply", "plan.json", "--auto-approve"], { env, cwd: dir });
    expect(edited.code, edited.stderr).toBe(4);
    expect(edited.stderr).toContain("plan.json was changed after it was saved");
    expect(sandbox.stats().writeRequests).toBe(0);
  });

  it("never saves a refused plan, and refuses planning flags given to a saved plan", async () => {
    const dir = workdir({ "sitesync.yaml": config.replace("websites:", "policy:\n  prune: true\n  max_deletes: 1\nwebsites:") });
    const refused = await sitesync(["plan", "--out", "plan.json"], { env, cwd: dir });
    expect(refused.code).toBe(4);
    expect(refused.stdout).toMatch(/run again with --max-deletes \d/);
    expect(refused.stderr).toMatch(/\nerror: the plan was refused by a safety rail \(reason above\); plan.json was not written\n$/);
    const { existsSync } = await import("node:fs");
    expect(existsSync(join(dir, "plan.json"))).toBe(false);

    expect((await sitesync(["plan", "--max-deletes", "5", "--out", "plan.json"], { env, cwd: dir })).code).toBe(0);
    const flagged = await sitesync(["apply", "plan.json", "--max-deletes", "9", "--auto-approve"], { env, cwd: dir });
    expect(flagged.code).toBe(1);
    expect(flagged.stderr).toContain("run `sitesync plan --max-deletes 9 --out plan.json` again");
    expect(sandbox.stats().writeRequests).toBe(0);
  });

  it("says where it could not write, before changing anything", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    const result = await sitesync(["apply", "--auto-approve", "--results", "/nonexistent/r.json"], { env, cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("cannot write /nonexistent/r.json (ENOENT)");
    expect(sandbox.stats().writeRequests).toBe(0);
  });
});
