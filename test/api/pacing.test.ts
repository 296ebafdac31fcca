import { HttpResponse, http, passthrough } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RateGate } from "../../src/api/rate-gate.ts";
import { rateInfoOf } from "../../src/api/rate-info.ts";
import type { LearnedRate } from "../../src/api/types.ts";
import { errorLines } from "../../src/render/index.ts";
import { Throttle } from "../../src/sandbox/_throttle.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { type FakeClock, fakeClock } from "../helpers/fake-clock.ts";
import { apiWebsite, rejectionOf, testClient, WEBSITES } from "./helpers.ts";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/**
 * The sandbox's throttle is Laravel's (API-NOTES §1): `limit` hits per window, then 429 with Retry-After.
 * Given a clock, it counts windows in the same time as the client: the 429 counts below are exact.
 */
async function throttledSandbox(limit: number, windowMs: number, clock?: FakeClock): Promise<Sandbox> {
  const sandbox = await startSandbox({ rateLimit: limit, rateWindowMs: windowMs, seed: 12, ...(clock ? { clock } : {}) });
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

/**
 * `requests` requests through one RateGate against Laravel's throttle, `concurrency` at a time, in one
 * process on a fake clock: a 429 is retried as the client does. Returns the statuses in answer order.
 */
async function paced(options: {
  limit: number;
  windowMs: number;
  /** `--rate-window`; without it the gate learns the window. */
  gateWindowMs?: number;
  concurrency: number;
  requests: number;
  /** Answers come back after 1 to 4 turns of the loop (a fixed pseudo-random order), not in sending order. */
  shuffle?: boolean;
  /** Turns of the loop an answer takes to come back (default 1); past 2, time moves while answers travel. */
  travel?: number;
}) {
  const clock = fakeClock();
  const throttle = new Throttle(options.limit, options.windowMs);
  const waits: number[] = [];
  const learned: string[] = [];
  const paces: { at: number; ms: number; limit: number; windowMs: number }[] = [];
  const gate = new RateGate({
    windowMs: options.gateWindowMs,
    onWait: (ms) => waits.push(ms),
    onLearn: (limit, windowMs) => learned.push(`${limit} per ${windowMs} ms`),
    onPace: (pace) => paces.push({ at: clock.now(), ...pace }),
    clock,
  });
  const statuses: number[] = [];
  const started = clock.now();
  let left = options.requests;
  let sent = 0;
  const worker = async () => {
    while (left > 0) {
      left--;
      for (;;) {
        const ticket = await gate.acquire();
        const answer = throttle.hit(clock.now());
        const status = answer.allowed ? 200 : 429;
        // The answer travels back, in order or not.
        for (let turns = options.shuffle ? 1 + ((sent++ * 7) % 4) : (options.travel ?? 1); turns > 0; turns--)
          await new Promise((r) => setImmediate(r));
        statuses.push(status);
        gate.settle(ticket, rateInfoOf(status, new Headers(answer.headers), clock.now()), clock.now());
        if (status === 200) break;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const throttled = statuses.filter((s) => s === 429).length;
  return { statuses, waits, learned, paces, started, elapsed: clock.now() - started, throttled };
}

/** DESIGN §8's rate-limit bound: requests ÷ rate, and the 1.1× the pacing must stay within. */
const bound = (requests: number, limit: number, windowMs: number) => 1.1 * (requests / limit) * windowMs;

describe("rate pacing on an injected clock (exact counts)", () => {
  it("paces 12 requests, 4 at a time, against 5 per window from the headers alone: no 429, three windows", async () => {
    const { statuses, elapsed } = await paced({ limit: 5, windowMs: 60_000, gateWindowMs: 60_000, concurrency: 4, requests: 12 });
    expect(statuses.filter((s) => s === 429)).toHaveLength(0);
    expect(statuses).toHaveLength(12);
    // 5 + 5 + 2: the run waited out exactly two windows (plus the gate's margin), not more.
    expect(elapsed).toBeGreaterThanOrEqual(120_000);
    expect(elapsed).toBeLessThan(123_000);
  });

  it("tells each wait for the window once, with its exact length and the limit it paces by, however many requests it holds", async () => {
    const { paces, started, throttled } = await paced({ limit: 5, windowMs: 60_000, gateWindowMs: 60_000, concurrency: 4, requests: 12 });
    expect(throttled).toBe(0);
    // Two waits (5 + 5 + 2 requests), each said once although 4 workers were held by it; each ends when its window does.
    expect(paces.map((p) => ({ limit: p.limit, windowMs: p.windowMs }))).toEqual([
      { limit: 5, windowMs: 60_000 },
      { limit: 5, windowMs: 60_000 },
    ]);
    for (const [i, pace] of paces.entries()) {
      expect(pace.ms).toBeGreaterThan(55_000);
      expect(pace.at + pace.ms).toBeGreaterThanOrEqual(started + (i + 1) * 60_000);
      expect(pace.at + pace.ms).toBeLessThan(started + (i + 1) * 60_000 + 3_000);
    }
  });

  it("learns a longer window from a 429's Retry-After, so the next window brings no 429", async () => {
    const clock = fakeClock();
    const sandbox = await throttledSandbox(5, 60_000, clock);
    // The client believes in a window 5x too short: the first refill it assumes is early and gets a 429.
    const { client } = testClient({ websitesUrl: sandbox.url, apiKey: sandbox.apiKey, concurrency: 1, rateWindowMs: 12_000, clock });
    for (let id = 1; id <= 12; id++) await client.websites.show(id);
    expect(answered(sandbox)).toEqual({ ok: 12, throttled: 1 });
    expect(client.stats()).toMatchObject({ throttled: 1, retries: 0, sent: { GET: 13 } });
  });

  it("reports a pause once, however many requests in flight the same 429 holds up", async () => {
    const clock = fakeClock();
    const waits: string[] = [];
    const gate = new RateGate({ windowMs: 60_000, onWait: (ms, reason) => waits.push(`${ms} ms (${reason})`), clock });
    gate.settle(await gate.acquire(), { limit: 60, remaining: 50 }, clock.now());
    const held = await Promise.all([gate.acquire(), gate.acquire(), gate.acquire()]);
    const refused = rateInfoOf(429, new Headers({ "Retry-After": "20", "X-RateLimit-Limit": "60" }), clock.now());
    for (const ticket of held) gate.settle(ticket, refused, clock.now());
    expect(waits).toEqual(["20000 ms (Retry-After: 20)"]);
  });

  it("counts an answer without rate headers against the budget once the server paces", async () => {
    const clock = fakeClock();
    const gate = new RateGate({ windowMs: 60_000, clock });
    const probe = await gate.acquire();
    gate.settle(probe, { limit: 3, remaining: 1 }, clock.now());
    // A 404 from a proxy, say: no headers, but the server counted the hit.
    gate.settle(await gate.acquire(), {}, clock.now());
    const before = clock.now();
    await gate.acquire();
    expect(clock.now() - before).toBeGreaterThanOrEqual(60_000);
  });

  it("goes on after a 429 without rate-limit headers (a proxy's), once its Retry-After passed", async () => {
    let calls = 0;
    server.use(
      http.get(`${WEBSITES}/:id`, ({ params }) =>
        ++calls === 1
          ? HttpResponse.json({ message: "Too Many Requests" }, { status: 429, headers: { "Retry-After": "30" } })
          : HttpResponse.json({ data: apiWebsite(Number(params.id)) }),
      ),
    );
    const clock = fakeClock();
    const { client } = testClient({ concurrency: 2, clock });
    const start = clock.now();
    const sites = await Promise.all([1, 2, 3].map((id) => client.websites.show(id)));
    expect(sites.map((s) => s.id)).toEqual([1, 2, 3]);
    expect(client.stats().throttled).toBe(1);
    expect(clock.now() - start).toBeGreaterThanOrEqual(30_000);
  });

  it("never ends the run on a POST's 5xx Retry-After beyond --max-wait: the POST fails, unretried, as it is", async () => {
    server.use(
      http.post(WEBSITES, () => HttpResponse.json({ message: "Server Error" }, { status: 503, headers: { "Retry-After": "86400" } })),
      http.get(`${WEBSITES}/:id`, ({ params }) => HttpResponse.json({ data: apiWebsite(Number(params.id)) })),
    );
    const clock = fakeClock();
    const { client } = testClient({ clock, maxWaitMs: 60_000 });
    const error = await rejectionOf(client.websites.create({ domain: "a.example.com" }));
    expect(error).toMatchObject({ name: "ApiError", status: 503, ambiguous: true });
    expect(error.message).not.toMatch(/asked to wait/);
    expect(client.stats()).toMatchObject({ sent: { POST: 1 }, retries: 0 });
    // The run goes on: the next request is sent, not refused as stopped.
    expect((await client.websites.show(7)).id).toBe(7);
  });
});

describe("the window is learned, not assumed (DESIGN §6), on an injected clock", () => {
  it("learns a 5 s window of 30 from Remaining jumping back, without a 429, and paces within 1.1x of the bound", async () => {
    const run = await paced({ limit: 30, windowMs: 5_000, concurrency: 4, requests: 600 });
    expect(run.statuses).toHaveLength(600);
    expect(run.throttled).toBe(0);
    expect(run.learned).toEqual(["30 per 5000 ms"]);
    // Assuming the real API's minute, the same run would take 19 minutes.
    expect(run.elapsed).toBeLessThanOrEqual(bound(600, 30, 5_000));
  });

  it("sends no 429 to the real API's 60 per 60 s, and says the minute it learned", async () => {
    const run = await paced({ limit: 60, windowMs: 60_000, concurrency: 4, requests: 200 });
    expect(run.throttled).toBe(0);
    expect(run.learned).toEqual(["60 per 60000 ms"]);
    expect(run.elapsed).toBeLessThanOrEqual(bound(200, 60, 60_000));
  });

  it("paces 120 per 60 s by its own limit: no 429, within the bound", async () => {
    const run = await paced({ limit: 120, windowMs: 60_000, concurrency: 4, requests: 500 });
    expect(run.throttled).toBe(0);
    expect(run.learned).toEqual(["120 per 60000 ms"]);
    expect(run.elapsed).toBeLessThanOrEqual(bound(500, 120, 60_000));
  });

  it("takes exactly one 429 from a window longer than the minute it assumed, and none after it", async () => {
    // Answers slower than the clock: the requests held at the guessed end wake before the first one is answered.
    const run = await paced({ limit: 30, windowMs: 120_000, concurrency: 4, requests: 150, travel: 3 });
    expect(run.throttled).toBe(1);
    expect(run.waits).toHaveLength(1);
    expect(run.learned).toEqual(["30 per 120000 ms"]);
    expect(run.elapsed).toBeLessThanOrEqual(bound(150, 30, 120_000));
  });

  it("learns the same from answers that arrive out of order, with at most one 429", async () => {
    for (const [limit, windowMs, requests] of [
      [30, 5_000, 600],
      [60, 60_000, 200],
      [20, 90_000, 100],
    ] as const) {
      const run = await paced({ limit, windowMs, concurrency: 4, requests, shuffle: true });
      expect(run.throttled, `${limit}/${windowMs}`).toBeLessThanOrEqual(windowMs > 60_000 ? 1 : 0);
      expect(run.learned, `${limit}/${windowMs}`).toEqual([`${limit} per ${windowMs} ms`]);
      expect(run.elapsed, `${limit}/${windowMs}`).toBeLessThanOrEqual(bound(requests, limit, windowMs));
    }
  });

  it("learns nothing when the window is said (--rate-window), and paces by it", async () => {
    const run = await paced({ limit: 30, windowMs: 5_000, gateWindowMs: 5_000, concurrency: 4, requests: 90 });
    expect(run.throttled).toBe(0);
    expect(run.learned).toEqual([]);
    expect(run.elapsed).toBeLessThan(10_000 + 2 * 100 + 1);
  });

  it("tells the client's caller once, per server, over HTTP", async () => {
    const clock = fakeClock();
    const sandbox = await throttledSandbox(10, 4_000, clock);
    const learned: LearnedRate[] = [];
    const { client } = testClient({
      websitesUrl: sandbox.url,
      apiKey: sandbox.apiKey,
      concurrency: 2,
      clock,
      onRateLearned: (l) => learned.push(l),
    });
    for (let i = 0; i < 80; i++) await client.websites.show((i % 12) + 1);
    expect(answered(sandbox)).toEqual({ ok: 80, throttled: 0 });
    expect(learned).toEqual([{ origin: new URL(sandbox.url).origin, limit: 10, windowMs: 4_000 }]);
    // What the plan's estimate counts with: the window learned, not the minute assumed.
    expect(client.stats().rate).toMatchObject({ limit: 10, windowMs: 4_000 });
  });

  it("ends the run, naming --max-wait, rather than wait out a learned window longer than it", async () => {
    const clock = fakeClock();
    const sandbox = await throttledSandbox(8, 400_000, clock);
    const { client } = testClient({ websitesUrl: sandbox.url, apiKey: sandbox.apiKey, concurrency: 1, clock, maxWaitMs: 360_000 });
    let error: Error | undefined;
    for (let i = 0; i < 30 && !error; i++)
      error = await client.websites.show((i % 12) + 1).then(
        () => undefined,
        (e: Error) => e,
      );
    expect(error).toMatchObject({ limit: { code: "wait-learned", limit: 8, maxWaitMs: 360_000 } });
    expect(errorLines(error)[0]).toMatch(/rate limit \(8 requests per 7m, learned\) needs a wait of .*, longer than --max-wait 6m/);
    // The one 429 that revealed the window, and no request after the refusal.
    expect(answered(sandbox)).toEqual({ ok: 16, throttled: 1 });
  });
});

describe("rate pacing against real time (coarse)", () => {
  it("reads everything through a 1 s window of 5 requests, without hammering it", async () => {
    const sandbox = await throttledSandbox(5, 1_000);
    const { client } = testClient({ websitesUrl: sandbox.url, apiKey: sandbox.apiKey, concurrency: 4, rateWindowMs: 1_000 });
    const sites = await Promise.all(Array.from({ length: 12 }, (_, i) => client.websites.show(i + 1)));
    expect(sites.map((s) => s.id)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    // A loaded machine may lose a race with the window's edge; a gate that ignored the headers would see ~7.
    expect(answered(sandbox).ok).toBe(12);
    expect(answered(sandbox).throttled).toBeLessThan(5);
  });

  it("does not pace a server that sends no rate-limit headers", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    server.use(
      http.get(`${WEBSITES}/:id`, async ({ params }) => {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight--;
        return HttpResponse.json({ data: apiWebsite(Number(params.id)) });
      }),
    );
    const { client } = testClient({ concurrency: 3 });
    await client.websites.show(1);
    await Promise.all([2, 3, 4, 5, 6].map((id) => client.websites.show(id)));
    expect(maxInFlight).toBe(3);
  });
});

describe("RateGate", () => {
  /** Whether `acquire` is still held back after the loop ran everything else (the clock never moves). */
  async function isHeld(gate: RateGate): Promise<boolean> {
    const acquired = gate.acquire().then(() => false);
    const turns = new Promise<boolean>((resolve) => setImmediate(() => setImmediate(() => resolve(true))));
    return Promise.race([acquired, turns]);
  }
  const frozen = { now: () => 0, sleep: () => new Promise<void>(() => {}) };

  it("does not mistake answers arriving out of order for a refilled window", async () => {
    const gate = new RateGate({ windowMs: 60_000, clock: frozen });
    const probe = await gate.acquire();
    gate.settle(probe, { limit: 3, remaining: 2 }, 0);
    const a = await gate.acquire();
    const b = await gate.acquire();
    // The server processed b first (remaining 1) then a (remaining 0), but a's answer arrives first.
    gate.settle(a, { limit: 3, remaining: 0 }, 0);
    gate.settle(b, { limit: 3, remaining: 1 }, 0);
    expect(await isHeld(gate)).toBe(true);
  });

  it("lets one request probe before it knows whether the server paces", async () => {
    const gate = new RateGate({ windowMs: 60_000, clock: frozen });
    const probe = await gate.acquire();
    expect(await isHeld(gate)).toBe(true);
    gate.settle(probe, {}, 0);
    expect(await isHeld(gate)).toBe(false);
  });
});
