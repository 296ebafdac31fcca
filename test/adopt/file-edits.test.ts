/**
 * How `adopt` edits a file at its edges (DESIGN §7): ignored websites are left alone, `$${` is a literal, a
 * list whose websites are all gone while others are added stays a valid list, project drift is not refused,
 * and a compared field whose ${VAR} is unset is refused at its line. Real CLI, real HTTP, the sandbox
 * (duplicate live domains, which the sandbox cannot hold, are in src/adopt/update-config.test.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync, workdir } from "../helpers/cli.ts";

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

/** Runs `export --update` on `config` against an account of `websites`; returns the run and the file after. */
async function update(
  config: string,
  websites: SandboxOptions["websites"],
  args: string[] = [],
  projects: SandboxOptions["projects"] = [],
) {
  sandbox = await startSandbox({ rateLimit: 0, websites: websites ?? [], projects });
  const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url, SITESYNC_PROJECTS_URL: sandbox.url };
  const dir = workdir({ "sitesync.yaml": config });
  const run = await sitesync(["adopt", "sitesync.yaml", ...args], { env, cwd: dir });
  const plan = await sitesync(["plan", "--detailed-exitcode"], { env, cwd: dir });
  return { run, plan, text: readFileSync(join(dir, "sitesync.yaml"), "utf8") };
}

it("never rewrites nor removes a listed website that the policy ignores", async () => {
  const config =
    'version: 1\npolicy:\n  ignore: ["tmp-*.example.org"]\nwebsites:\n  - domain: shop.example.com\n' +
    "  - domain: tmp-1.example.org\n    privacy: public\n  - domain: tmp-9.example.org\n    privacy: public\n";
  const { run, text } = await update(config, [{ domain: "shop.example.com" }, { domain: "tmp-1.example.org", privacy: 1 }]);
  expect(run.code, run.stderr).toBe(0);
  expect(text).toBe(config);
});

it("takes $${ in a list's comment as literal text, not a variable, and updates the list", async () => {
  const config = "version: 1\nwebsites:\n  - domain: shop.example.com\n    exclude_ips:\n      - 10.0.0.1 # costs $${PRICE}\n";
  const { run, text } = await update(config, [{ domain: "shop.example.com", exclude_ips: ["10.0.0.1", "10.0.0.2"] }]);
  expect(run.code, run.stderr).toBe(0);
  expect(text).toContain("10.0.0.2");
  expect(text).toContain("# costs $${PRICE}");
});

it("keeps a list whose websites are all gone valid while new ones are added to it", async () => {
  const config = "version: 1\nwebsites:\n  - domain: gone.example.com\n";
  const { run, plan, text } = await update(config, [{ domain: "new.example.com" }], ["--add-unlisted"]);
  expect(run.code, run.stderr).toBe(0);
  expect(text).toContain("new.example.com");
  expect(text).not.toContain("gone.example.com");
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
});

it("updates the websites of a file whose projects still differ from the account: project drift is not refused", async () => {
  const config =
    "version: 1\nwebsites:\n  - domain: shop.example.com\n    privacy: public\nprojects:\n  - project: old.example.org\n    state: absent\n";
  const { run, text } = await update(config, [{ domain: "shop.example.com", privacy: 1 }], [], [{ project: "old.example.org" }]);
  expect(run.code, run.stderr).toBe(0);
  expect(text).toContain("privacy: private");
  expect(text).toContain("state: absent");
});

it("does not refuse project drift when the whole file is checked again either (a file with an anchor)", async () => {
  // An anchor sends the update through its whole-file check instead of the check of the edited entries alone.
  const config =
    "version: 1\nwebsites:\n  - domain: shop.example.com\n    privacy: public\n    exclude_bots: &bots true\n" +
    "  - domain: blog.example.com\n    exclude_bots: *bots\n" +
    "projects:\n  - project: old.example.org\n    state: absent\n";
  const live = [{ domain: "shop.example.com", privacy: 1 }, { domain: "blog.example.com" }];
  const { run, text } = await update(config, live, [], [{ project: "old.example.org" }]);
  expect(run.code, run.stderr).toBe(0);
  expect(text).toContain("domain: shop.example.com\n    privacy: private");
  expect(text).toContain("state: absent");
});

it("refuses, at its line, a compared field whose ${VAR} is unset, though the run's own load only warned of it", async () => {
  // The run loads the file with unset variables as notes (it needs only the account's address), so the tree it
  // loaded still holds the raw reference: the update must read the file itself, where such a field is an error.
  const config = "version: 1\nwebsites:\n  - domain: shop.example.com\n    email: ${SEND_REPORTS}\n";
  const { run, text } = await update(config, [{ domain: "shop.example.com", email: 1 }]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("sitesync.yaml:4:12");
  expect(run.stderr).toContain("SEND_REPORTS");
  expect(text).toBe(config);
});
