/**
 * A re-plan after apply says what it is (DESIGN §3 "Plans that follow the change"): once the change since
 * HEAD~1 is applied, `plan --changed-since HEAD~1` labels what it still sends as re-sends of an already-sent
 * change, with the flag to stop (the password of the website the change created too: someone else may have), and
 * `--detailed-exitcode` converges (exit 0). Time is an input: the commit is dated in the past and the
 * account's websites before it, so only apply's writes come after it, however fast the machine.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync, workdir } from "../helpers/cli.ts";

const COMMITTED = "2020-06-01T12:00:00Z";
const BEFORE = "2019-01-01T00:00:00.000000Z";
const SECRETS = { SHOP_PW: "shop-rotated-Secret-1", NEW_PW: "new-site-Secret-2" };

const BASE = "version: 1\nwebsites:\n  - domain: shop.example.com\n    privacy: password\n    password: ${SHOP_PW}\n";
// The change: a rotation of shop's password, and a new password site.
const HEAD = `${BASE}    password_version: 2\n  - domain: new.example.com\n    privacy: password\n    password: \${NEW_PW}\n`;

/** `git ARGS` in `dir`, every commit dated `COMMITTED`. */
function git(dir: string, ...args: string[]): string {
  const identity = ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"];
  const env = { ...process.env, GIT_COMMITTER_DATE: COMMITTED, GIT_AUTHOR_DATE: COMMITTED };
  return execFileSync("git", [...identity, ...args], { cwd: dir, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

let sandbox: Sandbox;
let env: Record<string, string>;
let dir: string;
let head: string;
beforeEach(async () => {
  sandbox = await startSandbox({
    rateLimit: 0,
    websites: [{ domain: "shop.example.com", privacy: 2, password: "shop-old-password", created_at: BEFORE, updated_at: BEFORE }],
  });
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url, ...SECRETS };
  dir = workdir();
  git(dir, "init", "-q");
  writeFileSync(join(dir, "sitesync.yaml"), BASE);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  writeFileSync(join(dir, "sitesync.yaml"), HEAD);
  git(dir, "commit", "-q", "-am", "rotate shop, add new");
  head = git(dir, "rev-parse", "HEAD").slice(0, 12);
});
afterEach(() => sandbox.close());

const plan = (...args: string[]) => sitesync(["plan", "--changed-since", "HEAD~1", "--detailed-exitcode", ...args], { env, cwd: dir });

it("before apply, the change's sends are first sends: exit 2", async () => {
  const before = await plan();
  expect(before.code, before.stderr).toBe(2);
  expect(before.stdout).toContain("  + create  new.example.com\n");
  expect(before.stdout).toContain("password: (sensitive), sent: rotated since HEAD~1\n");
  expect(before.stdout).not.toContain("re-sent");
});

it("after apply, labels the re-sends with the flag to stop, the created website's too, and converges", async () => {
  const applied = await sitesync(["apply", "--changed-since", "HEAD~1", "--auto-approve"], { env, cwd: dir });
  expect(applied.code, applied.stderr).toBe(0);

  const again = await plan();
  expect(again.code, again.stdout).toBe(0);
  expect(again.stdout).toContain(
    `password: (sensitive), re-sent: rotated since HEAD~1 and sent already (the website was written since ${head}); --changed-since ${head} stops re-sending\n`,
  );
  expect(again.stdout).toContain(
    `2 updates only re-send what applying the change since HEAD~1 sent already (their websites were written since ${head}, the commit the config is): --detailed-exitcode counts them as no change; --changed-since ${head} stops re-sending.`,
  );
  // Created since the commit, by this apply or by someone else with another password: it looks the same, so
  // the change's password is sent again rather than dropped.
  expect(again.stdout).toMatch(/~ update {2}new\.example\.com[^\n]*\n\s+password: \(sensitive\), re-sent: /);
  expect(again.stdout).toContain("Plan: 0 to create, 2 to update, 0 to delete, 0 unchanged, 0 unmanaged.");

  const stopped = await sitesync(["plan", "--changed-since", head, "--detailed-exitcode"], { env, cwd: dir });
  expect(stopped.code, stopped.stderr).toBe(0);
  expect(stopped.stdout).toContain("No changes.");

  // A re-send is still applied: nothing a plan shows is dropped.
  sandbox.resetLog();
  const resent = await sitesync(["apply", "--changed-since", "HEAD~1", "--auto-approve"], { env, cwd: dir });
  expect(resent.code, resent.stderr).toBe(0);
  expect(sandbox.requests.filter((r) => r.method !== "GET").map((r) => r.method)).toEqual(["PUT", "PUT"]);
});

it("does not call a send a re-send when the config now is not the commit (edited since): no evidence", async () => {
  const applied = await sitesync(["apply", "--changed-since", "HEAD~1", "--auto-approve"], { env, cwd: dir });
  expect(applied.code, applied.stderr).toBe(0);
  appendFileSync(join(dir, "sitesync.yaml"), "# an edit not committed yet\n");
  const edited = await plan();
  expect(edited.code, edited.stdout).toBe(2);
  expect(edited.stdout).toContain("password: (sensitive), sent: rotated since HEAD~1\n");
  expect(edited.stdout).not.toContain("re-sent");
});
