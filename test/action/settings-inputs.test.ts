/**
 * The run settings as Action inputs (DESIGN §1, §7): read by the settings table as the CLI's flags are, through
 * the committed bundle against the sandbox over real HTTP.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Sandbox, SandboxOptions } from "../../src/sandbox/index.ts";
import { type ActionFixture, oneAccount, startActionFixture } from "./fixture.ts";
import { type ActionRun, runAction } from "./run-action.ts";

const API_KEY = "SeTt1nGsK3y000000000000000000000000000000000000000000000000000Zz";

let fixture: ActionFixture<"account">;
let sandbox: Sandbox;
afterEach(() => fixture.close());

/** A sandbox account, and a checkout whose sitesync.yaml (`lines` after the header) points at it. */
async function account(options: SandboxOptions, lines: string[]): Promise<string> {
  fixture = await startActionFixture({
    sandboxes: { account: { apiKey: API_KEY, ...options } },
    files: (urls) => ({ "sitesync.yaml": oneAccount(urls.account, lines) }),
  });
  sandbox = fixture.sandboxes.account;
  return fixture.workspace;
}

/** `command` run on a schedule (plan) or by hand (apply, with apply-unreviewed: no review is looked for). */
function action(workspace: string, command: "plan" | "apply", inputs: Record<string, string> = {}): Promise<ActionRun> {
  return runAction({
    workspace,
    inputs: { command, "api-key": API_KEY, ...(command === "apply" ? { "apply-unreviewed": "true" } : {}), ...inputs },
    event: { name: command === "apply" ? "workflow_dispatch" : "schedule" },
  });
}

const errorOf = (run: ActionRun) => run.commands.find((c) => c.startsWith("::error::"));

describe("durations", () => {
  it("times a request out after the timeout input", async () => {
    const workspace = await account({ latencyMs: 2000, websites: [{ domain: "shop.example.com" }] }, [
      "websites:",
      "  - domain: shop.example.com",
    ]);
    const run = await action(workspace, "plan", { timeout: "50ms" });
    expect(run.code).toBe(1);
    expect(run.summary).toMatch(/timed out: no answer within 50 ms \(raise the timeout input if the server is this slow\)/);
    expect(run.summary + run.stdout).not.toContain("--timeout");
  });

  it("refuses a bare number, named as the input, with every other invalid input, before any request", async () => {
    const workspace = await account({}, ["websites:", "  - domain: shop.example.com"]);
    const run = await action(workspace, "plan", { timeout: "5000", "max-deletes": "x", verify: "yes" });
    expect(run.code).toBe(1);
    expect(errorOf(run)).toBe(
      "::error::invalid input: " +
        'timeout needs a unit: 5000ms (a bare number meant milliseconds before), not "5000"; durations take ms, s, m or h; ' +
        'max-deletes must be a whole number of at least 0, not "x"; verify must be true or false, not "yes"',
    );
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe("allow-empty", () => {
  it("lets prune delete every website only when it is true", async () => {
    const websites = [{ domain: "a.example.org" }, { domain: "b.example.org" }];
    const workspace = await account({ websites }, ["policy:", "  prune: true", "websites: []"]);
    const refused = await action(workspace, "apply");
    expect(refused.code).toBe(4);
    expect(refused.summary).toContain("lists no website to keep");
    expect(sandbox.store.websites()).toHaveLength(2);
    const run = await action(workspace, "apply", { "allow-empty": "true" });
    expect(run.code, run.summary).toBe(0);
    expect(sandbox.store.websites()).toEqual([]);
  });
});

describe("verify", () => {
  const config = ["websites:", "  - domain: shop.example.com", "    exclude_ips: [10.0.0.1, 10.0.0.2]"];

  it("re-reads the account after applying and says it matches", async () => {
    const workspace = await account({ websites: [{ domain: "shop.example.com" }] }, config);
    const run = await action(workspace, "apply", { verify: "true" });
    expect(run.code, run.summary).toBe(0);
    expect(run.summary).toContain("Verified: the account matches the configuration.");
  });

  it("fails with exit 3 when a value the API rewrote did not converge", async () => {
    const workspace = await account({ dropLastExcludedIp: true, websites: [{ domain: "shop.example.com" }] }, config);
    const run = await action(workspace, "apply", { verify: "true" });
    expect(run.code).toBe(3);
    expect(run.summary).toContain("Verify: 1 change did not converge");
    expect(run.summary).toMatch(/shop\.example\.com.*exclude_ips/);
    expect(errorOf(run)).toBe("::error::1 change did not converge (verify)");
  });

  it("is not done without the input", async () => {
    const workspace = await account({ websites: [{ domain: "shop.example.com" }] }, config);
    const run = await action(workspace, "apply");
    expect(run.code, run.summary).toBe(0);
    expect(run.summary).not.toContain("Verified");
  });
});
