/**
 * Two applies of one account at once (DESIGN §6): the second refuses before any request, naming the run that
 * holds the account, and the first applies each change once. Two real CLI processes against one sandbox,
 * synchronised on the first one's progress (its first write held in the sandbox), never on time.
 */
import { afterEach, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync, workdir } from "../helpers/cli.ts";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const DOMAINS = ["a.example.com", "b.example.com", "c.example.com", "d.example.com", "e.example.com", "f.example.com"];
const CONFIG = `version: 1\nwebsites:\n${DOMAINS.map((d) => `  - domain: ${d}\n    email: true\n`).join("")}`;

/** A promise and the function that settles it. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire = () => {};
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

it("a second apply of the account refuses while the first runs, sends nothing, and each update is sent once", async () => {
  const held = signal();
  const release = signal();
  let first = true;
  const s = await startSandbox({
    rateLimit: 0,
    websites: DOMAINS.map((domain) => ({ domain, email: 0 })),
    // The first write of the run waits here until the test lets it go: that run is then mid-apply.
    beforeAnswer: ({ method }) => {
      if (method !== "PUT" || !first) return undefined;
      first = false;
      held.fire();
      return release.promise;
    },
  });
  sandbox = s;
  const dir = workdir({ "sitesync.yaml": CONFIG });
  const env = { SITESYNC_API_KEY: s.apiKey, SITESYNC_WEBSITES_URL: s.url };

  const one = sitesync(["apply", "--auto-approve", "--concurrency", "1"], { env, cwd: dir });
  await held.promise;
  const requestsBefore = s.requests.length;
  const two = await sitesync(["apply", "--auto-approve"], { env, cwd: dir });
  expect(two.code, two.stdout + two.stderr).toBe(1);
  expect(two.stderr).toMatch(
    new RegExp(
      `^error: another sitesync apply of ${s.url.replaceAll(".", "\\.")} is running on this machine \\(pid \\d+, since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\): ` +
        "nothing was sent\\. Let it finish, then run again: a fresh plan shows what is left to do\\n$",
    ),
  );
  expect(s.requests.length).toBe(requestsBefore);
  expect(two.stdout + two.stderr).not.toContain(s.apiKey);

  release.fire();
  const done = await one;
  expect(done.code, done.stdout + done.stderr).toBe(0);
  const puts = s.requests.filter((r) => r.method === "PUT").map((r) => r.path);
  expect(puts).toHaveLength(DOMAINS.length);
  expect(new Set(puts).size).toBe(DOMAINS.length);
  expect(s.store.websites().map((w) => w.email)).toEqual(DOMAINS.map(() => 1));

  // Once the first has ended, the account is free: a new apply plans what is left (nothing) and exits 0.
  const after = await sitesync(["apply", "--auto-approve"], { env, cwd: dir });
  expect([after.code, after.stdout]).toEqual([0, expect.stringContaining("No changes.")]);
});

it("holds applies only: a plan of the account runs, and an apply with another key (another account) is not held", async () => {
  const release = signal();
  const held = signal();
  const s = await startSandbox({
    rateLimit: 0,
    websites: [{ domain: "a.example.com", email: 0 }],
    beforeAnswer: ({ method }) => {
      if (method !== "PUT") return undefined;
      held.fire();
      return release.promise;
    },
  });
  sandbox = s;
  const dir = workdir({ "sitesync.yaml": "version: 1\nwebsites:\n  - domain: a.example.com\n    email: true\n" });
  const env = { SITESYNC_API_KEY: s.apiKey, SITESYNC_WEBSITES_URL: s.url };
  const one = sitesync(["apply", "--auto-approve"], { env, cwd: dir });
  await held.promise;
  const plan = await sitesync(["plan", "--detailed-exitcode"], { env, cwd: dir });
  expect([plan.code, plan.stdout]).toEqual([2, expect.stringContaining("email: false → true")]);
  // The sandbox knows one key: another is refused by the server (401), not by the lock.
  const otherKey = await sitesync(["apply", "--auto-approve"], { env: { ...env, SITESYNC_API_KEY: "1".repeat(64) }, cwd: dir });
  expect(otherKey.stderr).not.toContain("another sitesync apply");
  expect(otherKey.stderr).toContain("401");
  release.fire();
  expect((await one).code).toBe(0);
});
