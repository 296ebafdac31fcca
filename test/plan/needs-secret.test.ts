/**
 * A plan never fails for what only apply needs (DESIGN §2, §7): on a 300-website account exported to a file
 * (password sites listed without a password), someone deletes a password site in the web UI. The drift is
 * planned, flagged with what to add, and counted: `plan --detailed-exitcode` exits 2 naming the site, in
 * every format, through a saved plan's round trip, the Action's annotations and the cron wrapper; `apply`
 * refuses just that change before any write, with the same words, and applies the rest (exit 4).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { runAction } from "../action/run-action.ts";
import { sitesync, workdir } from "../helpers/cli.ts";

const WORDS = (line: number, file = "sitesync.yaml") =>
  `needs a password (it is created with privacy password): add "password: \${STATS_PASSWORD}" to this website (${file}:${line}:13) or to defaults, and set STATS_PASSWORD; apply refuses this change until then`;

let sandbox: Sandbox;
let env: Record<string, string>;
let dir: string;
/** The password site deleted in the web UI, and where the exported file lists it. */
let gone: { domain: string; line: number };

beforeEach(async () => {
  sandbox = await startSandbox({ rateLimit: 0, seed: 300 });
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
  dir = workdir();
  const exported = await sitesync(["export", "--out", "sitesync.yaml"], { env, cwd: dir });
  expect(exported.code, exported.stderr).toBe(0);
  const site = sandbox.store.websites().find((w) => w.privacy === 2 && w.password !== null)!;
  sandbox.store.removeWebsite(site.id);
  const lines = readFileSync(join(dir, "sitesync.yaml"), "utf8").split("\n");
  gone = { domain: site.domain, line: lines.indexOf(`  - domain: ${site.domain}`) + 1 };
  // Other drift beside it, which apply can fix: a public site made private in the web UI.
  const other = sandbox.store.websites().find((w) => w.privacy === 0)!;
  sandbox.store.updateWebsite(other.id, { privacy: 1 });
  sandbox.resetLog();
});
afterEach(() => sandbox.close());

describe("a deleted password site of an exported file", () => {
  it("is drift: plan --detailed-exitcode exits 2 naming the site and what to add, with the other drift shown too", async () => {
    const plan = await sitesync(["plan", "--detailed-exitcode"], { env, cwd: dir });
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain(`  + create  ${gone.domain}\n`);
    expect(plan.stdout).toContain(`      ! ${WORDS(gone.line)}\n`);
    expect(plan.stdout).toContain("Plan: 1 to create, 1 to update, 0 to delete, 298 unchanged, 0 unmanaged.");
    expect(plan.stdout).toContain("1 change needs a password the config does not set: apply refuses it until the config sets one.");
    expect(sandbox.stats().writeRequests).toBe(0);
  });

  it("is flagged in JSON and Markdown, and a saved plan keeps the flag through show and apply", async () => {
    const json = await sitesync(["plan", "--format", "json", "--out", "plan.json"], { env, cwd: dir });
    expect(json.code, json.stderr).toBe(0);
    const create = JSON.parse(json.stdout).changes.find((c: { domain?: string }) => c.domain === gone.domain);
    expect(create).toMatchObject({ action: "create", needs: { secret: "password", because: "create" } });
    const markdown = await sitesync(["show", "plan.json", "--format", "markdown"], { env, cwd: dir });
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stdout).toContain(`> - ${gone.domain}: needs a password (it is created with privacy password)`);

    const apply = await sitesync(["apply", "plan.json", "--auto-approve"], { env, cwd: dir });
    expect(apply.code, apply.stderr).toBe(4);
    expect(apply.stdout).toContain(`skipped create ${gone.domain}: ${WORDS(gone.line)}`);
    expect(apply.stderr).toContain("1 change was not applied: it needs a password the config does not set (said above).");
    // Only the other drift was written; the site needing a password was never POSTed.
    expect(sandbox.requests.filter((r) => r.method !== "GET").map((r) => r.method)).toEqual(["PUT"]);
    expect(sandbox.store.findWebsite(gone.domain)).toBeUndefined();
  });

  it("is drift for the Action: exit code 2, a warning annotation at the website's line with the same words", async () => {
    const action = await runAction({
      workspace: dir,
      inputs: { command: "plan", "api-key": sandbox.apiKey, "websites-url": sandbox.url, "detailed-exitcode": "true", comment: "false" },
      event: { name: "workflow_dispatch" },
    });
    expect(action.outputs["exit-code"]).toBe("2");
    const annotation = action.commands.find((line) => line.includes(gone.domain));
    expect(annotation).toBe(
      `::warning title=sitesync create,file=sitesync.yaml,line=${gone.line},col=13::create website ${gone.domain}: ${WORDS(gone.line)}`,
    );
    expect(action.summary).toContain("1 change needs a password the config does not set");
    expect(sandbox.stats().writeRequests).toBe(0);
  });
});

const WRAPPER = fileURLToPath(new URL("../../examples/cron/sitesync-drift.sh", import.meta.url));
const hasTools = spawnSync("sh", ["-c", "command -v bash && command -v flock"]).status === 0;

describe.skipIf(!hasTools)("the cron wrapper", () => {
  it("reports it as drift (exit 2, DRIFT in the log) and mails the plan with the flag", async () => {
    const bin = `${realpathSync(process.execPath)} ${fileURLToPath(new URL("../../bin/sitesync.js", import.meta.url))}`;
    writeFileSync(join(dir, "env"), `SITESYNC_API_KEY=${sandbox.apiKey}\nSITESYNC_WEBSITES_URL=${sandbox.url}\nSITESYNC_BIN="${bin}"\n`, {
      mode: 0o600,
    });
    const log = join(dir, "drift.log");
    const cron = {
      PATH: "/usr/bin:/bin",
      HOME: dir,
      SITESYNC_ENV_FILE: join(dir, "env"),
      SITESYNC_LOG: log,
      SITESYNC_LOCK: join(dir, "lock"),
    };
    const run = await new Promise<{ code: number; stdout: string }>((resolve, reject) => {
      const child = spawn(WRAPPER, ["-c", join(dir, "sitesync.yaml")], { cwd: dir, env: cron });
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code: code ?? -1, stdout }));
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`! ${WORDS(gone.line, join(dir, "sitesync.yaml"))}`);
    expect(existsSync(log) ? readFileSync(log, "utf8") : "").toContain("DRIFT");
  });
});
