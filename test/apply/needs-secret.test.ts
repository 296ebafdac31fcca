/**
 * The library's `apply()` on a plan with a change that needs a secret the config does not set (DESIGN §2, §7):
 * that change alone is refused, reported first, before any request; the others are applied.
 */
import { afterEach, expect, it } from "vitest";
import { apply, createClient, plan, type Sandbox, startSandbox } from "../../src/index.ts";

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

it("refuses only the flagged change, before any request, and applies the rest", async () => {
  sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "shop.example.com", privacy: 1 }] });
  const client = createClient({ websitesUrl: sandbox.url, apiKey: sandbox.apiKey });
  const desired = {
    websites: [
      { domain: "shop.example.com", state: "present" as const, privacy: 0 as const },
      { domain: "locked.example.com", state: "present" as const, privacy: 2 as const },
    ],
    policy: { prune: false, maxDeletes: 10, protect: [], ignore: [] },
  };
  const planned = plan(desired, { websites: await client.websites.readAll() }, { configFile: "sitesync.yaml", configDigest: "d" });
  expect(planned.changes.map((c) => [c.action, "needs" in c ? c.needs : undefined])).toEqual([
    ["create", { secret: "password", because: "create" }],
    ["update", undefined],
  ]);
  sandbox.resetLog();
  const seen: string[] = [];
  const result = await apply(planned, client, {
    passwordOf: () => undefined,
    onItem: (item) => seen.push(`${item.reason} ${sandbox!.stats().writeRequests}`),
  });
  // Reported before the first write; the update still applied.
  expect(seen).toEqual(["needs-secret 0", "applied 1"]);
  expect(result.items.map((i) => [i.change.action, i.status, i.reason])).toEqual([
    ["create", "skipped", "needs-secret"],
    ["update", "applied", "applied"],
  ]);
  expect(sandbox.requests.filter((r) => r.method !== "GET").map((r) => r.method)).toEqual(["PUT"]);
  expect(sandbox.store.findWebsite("locked.example.com")).toBeUndefined();
});
