/**
 * A create refused because the domain is taken (422, API-NOTES §2.4: unique across the whole server) says who
 * has it: this account, since the plan read it (another run applied the same change), or another account.
 * Never adopted: only our own ambiguous POST may be (create-adopt.test.ts).
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { createClient } from "../../src/api/client.ts";
import { apply } from "../../src/apply/apply.ts";
import { DEFAULT_POLICY } from "../../src/model/policy.ts";
import type { DesiredWebsite } from "../../src/model/website.ts";
import { plan } from "../../src/plan/plan.ts";
import { renderResultsText } from "../../src/render/results-text.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ rateLimit: 0 });
});
afterEach(() => sandbox.close());

/** Plans a create against an account read as empty, lets `between` happen, then applies it. */
async function createAfter(between: () => void) {
  const website: DesiredWebsite = { domain: "new.example.com", state: "present", privacy: 1 };
  const planned = plan({ websites: [website], policy: DEFAULT_POLICY }, { websites: [] }, { configFile: "t.yaml", configDigest: "t" });
  between();
  const client = createClient({ websitesUrl: sandbox.url, apiKey: sandbox.apiKey, retryBaseMs: 1 });
  return apply(planned, client, { passwordOf: () => undefined });
}

it("names another run (or a person) when the domain appeared in this account after the plan read it", async () => {
  const result = await createAfter(() => sandbox.store.addWebsite({ domain: "new.example.com", privacy: 0 }));
  const id = sandbox.store.findWebsite("new.example.com")!.id;
  expect(result.items[0]).toMatchObject({ status: "failed", reason: "taken", detail: { takenBy: "this-account", id } });
  const text = renderResultsText({ items: result.items, counts: result.counts });
  expect(text).toContain("The domain has already been taken.");
  expect(text).toContain(
    `created in this account (id ${id}) after the plan read it, by another run of sitesync or by hand: run plan again`,
  );
  // Not taken over: the site keeps what whoever created it set.
  expect(sandbox.store.findWebsite("new.example.com")!.privacy).toBe(0);
  expect(sandbox.requests.filter((r) => r.method === "PUT")).toHaveLength(0);
});

it("names another account when the domain is someone else's", async () => {
  const result = await createAfter(() => sandbox.store.addOtherUserDomain("new.example.com"));
  expect(result.items[0]).toMatchObject({ status: "failed", reason: "taken", detail: { takenBy: "another-account" } });
  expect(renderResultsText({ items: result.items, counts: result.counts })).toContain(
    "another account on this server has this domain (domains are unique server-wide)",
  );
  expect(sandbox.store.websites()).toHaveLength(0);
});
