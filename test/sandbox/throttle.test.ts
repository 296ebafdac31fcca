import { afterEach, describe, expect, it } from "vitest";
import { Throttle } from "../../src/sandbox/_throttle.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { call } from "./_helpers.ts";

describe("sandbox throttle over HTTP (API-NOTES §1: throttle:60,1)", () => {
  let sandbox: Sandbox | undefined;
  afterEach(() => sandbox?.close());

  it("sends X-RateLimit-Limit and X-RateLimit-Remaining on every answer, errors included", async () => {
    sandbox = await startSandbox();
    const ok = await call(sandbox, "GET", "/api/v1/websites");
    const unauthenticated = await call(sandbox, "GET", "/api/v1/websites", { auth: false });
    const missing = await call(sandbox, "GET", "/api/v1/websites/12345");
    expect([ok, unauthenticated, missing].map((a) => a.status)).toEqual([200, 401, 404]);
    expect([ok, unauthenticated, missing].map((a) => a.headers.get("x-ratelimit-limit"))).toEqual(["60", "60", "60"]);
    // The throttle runs before auth, so the 401 used up a request too.
    expect([ok, unauthenticated, missing].map((a) => a.headers.get("x-ratelimit-remaining"))).toEqual(["59", "58", "57"]);
  });

  it("answers 429 with Retry-After and X-RateLimit-Reset once the window is used up", async () => {
    let now = Date.UTC(2026, 0, 1, 12, 0, 0);
    sandbox = await startSandbox({ rateLimit: 3, rateWindowMs: 30_000, clock: { now: () => now } });
    for (let i = 0; i < 3; i++) expect((await call(sandbox, "GET", "/api/v1/websites")).status).toBe(200);
    now += 10_500;
    const refused = await call(sandbox, "GET", "/api/v1/websites");
    expect(refused.status).toBe(429);
    expect(refused.text).toBe('{"message":"Too Many Attempts."}');
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    // 19.5 s left, rounded up to whole seconds as Laravel does.
    expect(refused.headers.get("retry-after")).toBe("20");
    expect(refused.headers.get("x-ratelimit-reset")).toBe(String(now / 1000 - 0.5 + 20));
    expect(sandbox.stats().throttled).toBe(1);
  });

  it("sends the 429 body as HTML when the client does not ask for JSON", async () => {
    sandbox = await startSandbox({ rateLimit: 1, rateWindowMs: 30_000 });
    await call(sandbox, "GET", "/api/v1/websites");
    const refused = await call(sandbox, "GET", "/api/v1/websites", { accept: false });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toMatch(/^text\/html/);
    expect(refused.headers.get("retry-after")).not.toBeNull();
  });

  it("counts requests again in a new window once the old one has expired, on the sandbox's clock", async () => {
    let now = Date.UTC(2026, 0, 1);
    sandbox = await startSandbox({ rateLimit: 1, rateWindowMs: 60_000, clock: { now: () => now } });
    expect((await call(sandbox, "GET", "/api/v1/websites")).status).toBe(200);
    now += 59_999;
    const refused = await call(sandbox, "GET", "/api/v1/websites");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    now += 1;
    const again = await call(sandbox, "GET", "/api/v1/websites");
    expect(again.status).toBe(200);
    expect(again.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  it("sends no rate-limit headers and never refuses when the limit is 0", async () => {
    sandbox = await startSandbox({ rateLimit: 0 });
    const answers = await Promise.all(Array.from({ length: 80 }, () => call(sandbox!, "GET", "/api/v1/websites")));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers[0]!.headers.get("x-ratelimit-limit")).toBeNull();
  });
});

describe("Throttle window (Laravel RateLimiter semantics)", () => {
  it("opens the window at the first hit after the previous one expired", () => {
    const throttle = new Throttle(2, 1000);
    expect(throttle.hit(10_000).headers["X-RateLimit-Remaining"]).toBe("1");
    expect(throttle.hit(10_500).headers["X-RateLimit-Remaining"]).toBe("0");
    const refused = throttle.hit(10_900);
    expect(refused.allowed).toBe(false);
    expect(refused.headers["Retry-After"]).toBe("1");
    // The window of the first hit ends at 11 000; the next one opens at 11 700, not at 11 000.
    expect(throttle.hit(11_700)).toMatchObject({ allowed: true, headers: { "X-RateLimit-Remaining": "1" } });
    expect(throttle.hit(12_600).allowed).toBe(true);
    expect(throttle.hit(12_650).allowed).toBe(false);
    expect(throttle.hit(12_700).allowed).toBe(true);
  });

  it("rounds Retry-After up to whole seconds", () => {
    const throttle = new Throttle(1, 60_000);
    throttle.hit(0);
    expect(throttle.hit(500).headers["Retry-After"]).toBe("60");
    expect(throttle.hit(59_001).headers["Retry-After"]).toBe("1");
  });
});
