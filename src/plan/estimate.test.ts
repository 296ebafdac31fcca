import { describe, expect, it } from "vitest";
import { formatEstimate } from "../render/_values.ts";
import { estimate, fullReadRequests, rateOf } from "./estimate.ts";
import type { Change, RateKnown } from "./types.ts";

const write = (n: number): Change[] =>
  Array.from({ length: n }, (_, i) => ({ kind: "website", action: "delete", domain: `d${i}.example.com`, id: i + 1 }) as Change);
const minute = (budget?: RateKnown["budget"]): RateKnown => ({ limit: 60, windowMs: 60_000, ...(budget ? { budget } : {}) });
const words = (changes: Change[], rate: RateKnown, reads: number) => formatEstimate(estimate(changes, rate, reads));

describe("the estimate of a run, in the fixed-window model (DESIGN §5, §8)", () => {
  it("says 1–2 min for 105 requests at 60/min where the window's position is unknown, never 1 min", () => {
    expect(estimate(write(4), minute(), 101)).toMatchObject({ seconds: 60, secondsAtMost: 120 });
    expect(words(write(4), minute(), 101)).toBe("≈ 105 requests: 101 reads, 4 writes; about 1–2 min at 60/min");
  });

  it("records the budget the plan left, and keeps the range: the window it leaves may be spent when the run starts", () => {
    const e = estimate(write(4), minute({ remaining: 20, refillsInMs: 58_000 }), 101);
    expect(e).toMatchObject({ seconds: 60, secondsAtMost: 120, budget: { remaining: 20, refillSeconds: 58 } });
  });

  it("is sooner than a fresh window when the budget left and a refill a second away cover the run", () => {
    expect(estimate([], minute({ remaining: 59, refillsInMs: 1_000 }), 100)).toMatchObject({ seconds: 1, secondsAtMost: 120 });
  });

  it("is within the rate limit when the budget left covers every request", () => {
    expect(words(write(3), minute({ remaining: 59, refillsInMs: 40_000 }), 1)).toBe(
      "≈ 4 requests: 1 read, 3 writes; within the rate limit (60/min)",
    );
  });

  it("says how long at most a small run may wait when the budget left does not cover it, or is unknown", () => {
    expect(words(write(3), minute({ remaining: 2, refillsInMs: 40_000 }), 1)).toBe("≈ 4 requests: 1 read, 3 writes; up to 1 min at 60/min");
    expect(words(write(3), minute(), 1)).toBe("≈ 4 requests: 1 read, 3 writes; up to 1 min at 60/min");
  });

  it("counts a favorite create as two writes, and words a window that is not a minute by its seconds", () => {
    const create = { kind: "website", action: "create", domain: "fav.example.com", requests: 2, fields: [] } as unknown as Change;
    const e = estimate([create], { limit: 4, windowMs: 2_000, budget: { remaining: 2, refillsInMs: 2_000 } }, 6);
    expect(e).toMatchObject({ requests: 2, reads: 6, seconds: 2, secondsAtMost: 4 });
    expect(formatEstimate(e)).toBe("≈ 8 requests: 6 reads, 2 writes; about 2–4 s at 4/2s");
  });

  it("words long runs in whole minutes, and a range across the minute with both units", () => {
    expect(words([], minute(), 1000)).toBe("≈ 1000 requests: 1000 reads, 0 writes; about 16–17 min at 60/min");
    expect(words([], { limit: 60, windowMs: 40_000 }, 100)).toBe("≈ 100 requests: 100 reads, 0 writes; about 40 s–1.5 min at 60/40s");
  });

  it("estimates a subset of a plan's changes at the same rate and budget", () => {
    const e = estimate(write(4), minute({ remaining: 20, refillsInMs: 58_000 }), 101);
    expect(estimate(write(1), rateOf(e), 101)).toMatchObject({ requests: 1, seconds: 60, secondsAtMost: 120, budget: e.budget });
  });
});

describe("the reads of a full read", () => {
  it("is a page of 100 per API read, one at least", () => {
    const sites = (n: number) => Array.from({ length: n }, () => ({})) as never[];
    expect(fullReadRequests({ websites: sites(0) })).toBe(1);
    expect(fullReadRequests({ websites: sites(10_000) })).toBe(100);
    expect(fullReadRequests({ websites: sites(10_001), projects: sites(30) })).toBe(102);
  });
});
