/**
 * What a library user sees (src/index.ts's exports only) when `apply()` is asked to send a password it was
 * not given: a SafetyError naming the website, before any request, never a plain Error or "a bug".
 */
import { afterEach, expect, it } from "vitest";
import { apply, createClient, plan, SafetyError, type Sandbox, startSandbox } from "../../src/index.ts";

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

it("refuses a plan that sends a password passwordOf cannot give, with a SafetyError, sending nothing", async () => {
  sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "shop.example.com", privacy: 1 }] });
  const client = createClient({ websitesUrl: sandbox.url, apiKey: sandbox.apiKey });
  const desired = {
    websites: [
      { domain: "shop.example.com", state: "present" as const, privacy: 2 as const, password: "hunter2-long-enough" },
      { domain: "new.example.com", state: "present" as const },
    ],
    policy: { prune: false, maxDeletes: 10, protect: [], ignore: [] },
  };
  const planned = plan(desired, { websites: await client.websites.readAll() }, { configFile: "sitesync.yaml", configDigest: "d" });
  expect(planned.changes.map((c) => c.action)).toEqual(["create", "update"]);
  sandbox.resetLog();

  const error = await apply(planned, client, { passwordOf: () => undefined }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SafetyError);
  expect(error).toMatchObject({ name: "SafetyError", code: "password-unavailable" });
  expect((error as Error).message).toContain("shop.example.com");
  expect((error as Error).message).not.toMatch(/bug|internal/i);
  expect(sandbox.stats().writeRequests).toBe(0);
  expect(sandbox.store.websites().map((w) => w.domain)).toEqual(["shop.example.com"]);
});
