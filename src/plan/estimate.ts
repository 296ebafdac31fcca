/**
 * How long a run of a plan takes (DESIGN §5, §8): its reads and its writes at the server's rate limit, in the
 * fixed-window model of Laravel's throttle (API-NOTES §1). A window lets `limit` requests through at once;
 * each further `limit` waits for the next window. Where the window stands when the run starts is unknown, so
 * the time is a range: 105 requests at 60/min wait one window from a fresh window, two from a spent one.
 */
import type { Live } from "../model/state.ts";
import type { Change, PlanEstimate, RateKnown } from "./types.ts";

/** The real API's limit (`throttle:60,1`, API-NOTES §1), assumed when the run knows no other. */
export const ASSUMED_RATE: RateKnown = { limit: 60, windowMs: 60_000 };

/** A full read lists 100 items a page (DESIGN §5, §8: ceil(N/100) list calls, at least one). */
const PAGE_SIZE = 100;

/** The list requests a full read of `live` takes: each API read, one page at least. */
export function fullReadRequests(live: Live): number {
  const pages = (items: readonly unknown[]) => Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  return pages(live.websites) + (live.projects === undefined ? 0 : pages(live.projects));
}

/**
 * The estimate of a run of `changes` after `reads` reads, at `rate`. The least time is a run started in a
 * fresh window, or sooner when the budget left now is about to refill; the most, a run started in a window
 * already spent (where the window stands is unknown: another run, or this plan's own reads, may have spent
 * it), unless the budget left now covers every request.
 */
export function estimate(changes: readonly Change[], rate: RateKnown, reads: number): PlanEstimate {
  const requests = changes.reduce((sum, c) => sum + (c.action === "create" ? c.requests : 1), 0);
  const total = reads + requests;
  const limit = Math.max(1, rate.limit);
  const windowSeconds = rate.windowMs / 1000;
  const windows = (n: number) => Math.max(0, Math.ceil(n / limit));
  const fresh = Math.max(0, windows(total) - 1) * windowSeconds;
  const spent = windows(total) * windowSeconds;
  const now = rate.budget ? fromBudget(total, rate.budget, fresh, (n) => Math.max(0, windows(n) - 1) * windowSeconds) : spent;
  return {
    requests,
    reads,
    rateLimit: rate.limit,
    rateWindowSeconds: windowSeconds,
    ...(rate.budget ? { budget: { remaining: rate.budget.remaining, refillSeconds: round(rate.budget.refillsInMs / 1000) } } : {}),
    seconds: round(Math.min(fresh, now)),
    secondsAtMost: round(now <= 0 ? 0 : spent),
  };
}

/** A run started now: the budget left at once, the rest from its refill on (a refilled budget is a fresh window). */
function fromBudget(total: number, budget: NonNullable<RateKnown["budget"]>, fresh: number, waits: (n: number) => number): number {
  if (budget.refillsInMs <= 0) return fresh;
  return total <= budget.remaining ? 0 : budget.refillsInMs / 1000 + waits(total - budget.remaining);
}

/** The rate an estimate was made at, to estimate a subset of its plan's changes at the same moment. */
export function rateOf(e: PlanEstimate): RateKnown {
  const windowMs = e.rateWindowSeconds * 1000;
  if (!e.budget) return { limit: e.rateLimit, windowMs };
  return { limit: e.rateLimit, windowMs, budget: { remaining: e.budget.remaining, refillsInMs: e.budget.refillSeconds * 1000 } };
}

function round(seconds: number): number {
  return Math.round(seconds * 10) / 10;
}
