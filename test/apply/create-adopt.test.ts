/**
 * A create whose POST answer was lost (DESIGN §6): the domain is looked up and the site adopted, never POSTed
 * blindly again; and an adopted site ends as planned, whoever created it.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { createClient } from "../../src/api/client.ts";
import { apply } from "../../src/apply/apply.ts";
import { DEFAULT_POLICY } from "../../src/model/policy.ts";
import type { DesiredWebsite } from "../../src/model/website.ts";
import { plan } from "../../src/plan/plan.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ rateLimit: 0 });
});
afterEach(() => sandbox.close());

const wanted: DesiredWebsite = { domain: "new.example.com", state: "present", privacy: 1, exclude_ips: ["203.0.113.7"], favorite: true };

/** Plans the create against an account read as empty, then lets `between` happen before applying it. */
async function createAfter(between: () => void) {
  const planned = plan({ websites: [wanted], policy: DEFAULT_POLICY }, { websites: [] }, { configFile: "t.yaml", configDigest: "t" });
  between();
  const client = createClient({ websitesUrl: sandbox.url, apiKey: sandbox.apiKey, retryBaseMs: 1 });
  return apply(planned, client, { passwordOf: () => undefined });
}

function stored() {
  const site = sandbox.store.findWebsite(wanted.domain);
  return site && { privacy: site.privacy, exclude_ips: site.exclude_ips, favorite: site.favorited_at !== null };
}

it("adopts a committed POST whose answer was dropped, without a second POST", async () => {
  const result = await createAfter(() => sandbox.setFaults({ dropAfterCommitRate: 1, methods: ["POST"] }));
  expect(result.items[0]).toMatchObject({ status: "applied", reason: "adopted" });
  expect(sandbox.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  expect(sandbox.store.websites()).toHaveLength(1);
  expect(stored()).toEqual({ privacy: 1, exclude_ips: "203.0.113.7", favorite: true });
});

it("brings an adopted site that someone else created in line with the plan before calling it applied", async () => {
  const result = await createAfter(() => {
    // Someone else creates the domain after the read; then every POST fails with a 500 before doing anything.
    sandbox.store.addWebsite({ domain: wanted.domain, privacy: 0, favorite: false });
    sandbox.setFaults({ errorRate: 1, methods: ["POST"] });
  });
  expect(result.items[0]).toMatchObject({ status: "applied", reason: "adopted" });
  expect(stored()).toEqual({ privacy: 1, exclude_ips: "203.0.113.7", favorite: true });
});

it("adopts a dropped POST among more near matches than the search reads (newest first)", async () => {
  // 600 older sites contain the domain; the lookup reads at most 5 pages of 100, newest first.
  for (let i = 0; i < 600; i++) sandbox.store.addWebsite({ domain: `x${i}.${wanted.domain}` });
  const result = await createAfter(() => sandbox.setFaults({ dropAfterCommitRate: 1, methods: ["POST"] }));
  expect(result.items[0]).toMatchObject({ status: "applied", reason: "adopted" });
  expect(sandbox.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  expect(sandbox.store.websites()).toHaveLength(601);
});

it("fails, and adopts nothing, when the domain is taken and no POST of ours was ambiguous: it is someone else's site", async () => {
  const result = await createAfter(() => sandbox.store.addWebsite({ domain: wanted.domain, privacy: 0, favorite: false }));
  expect(result.items[0]).toMatchObject({ status: "failed" });
  expect(JSON.stringify(result.items[0])).toContain("already been taken");
  expect(sandbox.requests.filter((r) => r.method !== "GET").map((r) => r.method)).toEqual(["POST"]);
  expect(stored()).toEqual({ privacy: 0, exclude_ips: null, favorite: false });
});
