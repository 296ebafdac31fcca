/**
 * DESIGN §6: creates, then updates, then deletes. A delete destroys a site's statistics, so it is sent only
 * once every create and update has been answered. Creates and updates are answered slowly here: a delete
 * sent early would be answered first, and the sandbox's log (in the order answers were sent) would show it.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { createClient } from "../../src/api/client.ts";
import { apply } from "../../src/apply/apply.ts";
import { DEFAULT_POLICY } from "../../src/model/policy.ts";
import { plan } from "../../src/plan/plan.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({
    rateLimit: 0,
    websites: ["u1", "u2", "d1", "d2"].map((name) => ({ domain: `${name}.example.com`, privacy: 0 })),
  });
});
afterEach(() => sandbox.close());

it("sends every delete only after every create and update was answered", async () => {
  const client = createClient({ websitesUrl: sandbox.url, apiKey: sandbox.apiKey, concurrency: 8, retryBaseMs: 1 });
  const live = { websites: await client.websites.readAll() };
  const desired = {
    policy: DEFAULT_POLICY,
    websites: [
      { domain: "c1.example.com", state: "present" as const },
      { domain: "c2.example.com", state: "present" as const },
      { domain: "u1.example.com", state: "present" as const, privacy: 1 as const },
      { domain: "u2.example.com", state: "present" as const, privacy: 1 as const },
      { domain: "d1.example.com", state: "absent" as const },
      { domain: "d2.example.com", state: "absent" as const },
    ],
  };
  const planned = plan(desired, live, { configFile: "t.yaml", configDigest: "t" });
  expect(planned.changes.map((c) => c.action)).toEqual(["create", "create", "update", "update", "delete", "delete"]);

  sandbox.resetLog();
  sandbox.setFaults({ slowRate: 1, slowMs: 150, methods: ["POST", "PUT"] });
  const result = await apply(planned, client, { passwordOf: () => undefined });
  expect(result.counts).toMatchObject({ applied: 6, failed: 0 });
  expect(sandbox.requests.map((r) => r.method)).toEqual(["POST", "POST", "PUT", "PUT", "DELETE", "DELETE"]);
});
