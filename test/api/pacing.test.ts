import { delay, HttpResponse, http, passthrough } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RateGate } from "../../src/api/rate-gate.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { apiWebsite, testClient, WEBSITES } from "./helpers.ts";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/**
 * The sandbox's throttle is Laravel's (API-NOTES §1): `limit` hits per window, then 429 with Retry-After.
 * The client talks to it over real HTTP on 127.0.0.1.
 */
async function throttledSandbox(limit: number, windowMs: number): Promise<Sandbox> {
  const sandbox = await startSandbox({ rateLimit: limit, rateWindowMs: windowMs, seed: 12 });
  sandboxes.push(sandbox);
  // msw intercepts every fetch of this file: let the requests to the sandbox through to it, untouched.
  server.use(http.all(`${sandbox.url}/*`, () => passthrough()));
  return sandbox;
}
const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

const answered = (sandbox: Sandbox) => ({
  ok: sandbox.requests.filter((r) => r.status === 200).length,
  throttled: sandbox.stats().throttled,
});

describe("rate pacing", () => {
  it("paces 12 requests against 5 per window from the headers alone: no 429", async () => {
    const sandbox = await throttledSandbox(5, 1_000);
    const { client } = testClient({ websitesUrl: sandbox.url, apiKey: sandbox.apiKey, concurrency: 4, rateWindowMs: 1_000 });
    const sites = await Promise.all(Array.from({ length: 12 }, (_, i) => client.websites.show(i + 1)));
    expect(sites.map((s) => s.id)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(answered(sandbox)).toEqual({ ok: 12, throttled: 0 });
    expect(client.stats().throttled).toBe(0);
  });

  it("learns a longer window from a 429's Retry-After, so the next window brings no 429", async () => {
    const sandbox = await throttledSandbox(5, 1_000);
    // The client believes in a window 5x too short: the first refill it assumes is early and gets a 429.
    const { client } = testClient({ websitesUrl: sandbox.url, apiKey: sandbox.apiKey, concurrency: 1, rateWindowMs: 200 });
    for (let id = 1; id <= 12; id++) await client.websites.show(id);
    expect(answered(sandbox)).toEqual({ ok: 12, throttled: 1 });
    expect(client.stats()).toMatchObject({ throttled: 1, retries: 0, sent: { GET: 13 } });
  });

  it("does not pace a server that sends no rate-limit headers", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    server.use(
      http.get(`${WEBSITES}/:id`, async ({ params }) => {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        await delay(20);
        inFlight--;
        return HttpResponse.json({ data: apiWebsite(Number(params.id)) });
      }),
    );
    const { client } = testClient({ concurrency: 3 });
    await client.websites.show(1);
    await Promise.all([2, 3, 4, 5, 6].map((id) => client.websites.show(id)));
    expect(maxInFlight).toBe(3);
  });

  it("goes on after a 429 without rate-limit headers (a proxy's), once its Retry-After passed", async () => {
    let calls = 0;
    server.use(
      http.get(`${WEBSITES}/:id`, ({ params }) =>
        ++calls === 1
          ? HttpResponse.json({ message: "Too Many Requests" }, { status: 429, headers: { "Retry-After": "1" } })
          : HttpResponse.json({ data: apiWebsite(Number(params.id)) }),
      ),
    );
    const { client } = testClient({ concurrency: 2 });
    const sites = await Promise.all([1, 2, 3].map((id) => client.websites.show(id)));
    expect(sites.map((s) => s.id)).toEqual([1, 2, 3]);
    expect(client.stats().throttled).toBe(1);
  });
});

describe("RateGate", () => {
  /** Whether `acquire` is still held back after other work had a chance to run. */
  async function isHeld(gate: RateGate): Promise<boolean> {
    const acquired = gate.acquire().then(() => false);
    return Promise.race([acquired, delay(50).then(() => true)]);
  }

  it("does not mistake answers arriving out of order for a refilled window", async () => {
    const gate = new RateGate(60_000);
    const probe = await gate.acquire();
    gate.settle(probe, { limit: 3, remaining: 2 }, Date.now());
    const a = await gate.acquire();
    const b = await gate.acquire();
    // The server processed b first (remaining 1) then a (remaining 0), but a's answer arrives first.
    gate.settle(a, { limit: 3, remaining: 0 }, Date.now());
    gate.settle(b, { limit: 3, remaining: 1 }, Date.now());
    expect(await isHeld(gate)).toBe(true);
  });

  it("lets one request probe before it knows whether the server paces", async () => {
    const gate = new RateGate(60_000);
    const probe = await gate.acquire();
    expect(await isHeld(gate)).toBe(true);
    gate.settle(probe, {}, Date.now());
    expect(await isHeld(gate)).toBe(false);
  });
});
