import pLimit from "p-limit";
import type { Clock } from "./clock.ts";
import { RateGate } from "./rate-gate.ts";
import type { RateInfo } from "./rate-info.ts";
import type { RateState } from "./rate-window.ts";

/** One per client, so one per run: every request of every API goes through it (DESIGN §6). */
export interface Scheduler {
  /**
   * Runs one HTTP attempt once a concurrency slot is free and the origin's rate budget allows it, then lets
   * the pacing learn from the `rate` the attempt reports (undefined when no answer arrived).
   */
  run<T extends { rate?: RateInfo | undefined }>(origin: string, attempt: () => Promise<T>): Promise<T>;
  /** What the pacing knows of a server's rate limit now; undefined before its first answer, or when it sends none. */
  rate(origin: string): RateState | undefined;
}

export type { RateState };

export interface SchedulerOptions {
  concurrency: number;
  /** The window the rate limit counts in, said outright (`--rate-window`); without it, each gate learns it. */
  rateWindowMs?: number | undefined;
  /** No pause longer than this: a server asking for more ends the run instead (DESIGN §12). */
  maxWaitMs?: number;
  /** Once aborted, requests still waiting for a slot or the rate budget are not sent (they reject). */
  stop?: AbortSignal;
  /** Told of each pause a server asks for (a 429's Retry-After), before the run waits it out. */
  onWait?: ((wait: ServerWait) => void) | undefined;
  /** Told once per server when its window is learned (never when it was said). */
  onRateLearned?: ((learned: LearnedRate) => void) | undefined;
  clock: Clock;
  /** Told when requests to a server have waited a second or more for its rate budget, and when that wait ends. */
  onProgress?: ((event: ReadProgress) => void) | undefined;
}

/**
 * What a read is doing, as data (DESIGN §5: nothing is silent): a page of a full listing read (of how many,
 * when the server says), a re-read after an integrity mismatch and why, or a wait for the rate budget of a
 * server that lasts a second or more (`start`, then `end` with its length).
 */
export type ReadProgress =
  | { kind: "page"; noun: string; read: number; of?: number }
  | { kind: "reread"; noun: string; attempt: number; of: number; problem: string }
  | { kind: "rate-wait"; phase: "start" | "end"; origin: string; ms: number; limit: number; windowMs: number };

/** A server's rate limit as learned from its answers (DESIGN §6): `limit` requests per `windowMs`. */
export interface LearnedRate {
  origin: string;
  limit: number;
  windowMs: number;
}

/** A pause a server asked for: how long, which server, and the header that said so. */
export interface ServerWait {
  ms: number;
  origin: string;
  reason: string;
}

/** Bounded concurrency (p-limit) across the run, plus one rate gate per origin: each server counts its own. */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const limit = pLimit(options.concurrency);
  const gates = new Map<string, RateGate>();
  const waits = rateWaits(options);
  const gateFor = (origin: string): RateGate => {
    const gate = gates.get(origin) ?? newGate(origin, options, waits);
    gates.set(origin, gate);
    return gate;
  };
  return {
    rate: (origin) => gates.get(origin)?.state(),
    run(origin, attempt) {
      return limit(async () => {
        const gate = gateFor(origin);
        options.stop?.throwIfAborted();
        const ticket = await gate.acquire(options.stop);
        waits.end(origin);
        let rate: RateInfo | undefined;
        try {
          const result = await attempt();
          rate = result.rate;
          return result;
        } finally {
          gate.settle(ticket, rate, options.clock.now());
        }
      });
    },
  };
}

/** The rate gate of one server, its waits and what it learns told with the server's origin. */
function newGate(origin: string, options: SchedulerOptions, waits: ReturnType<typeof rateWaits>): RateGate {
  const { onWait, onRateLearned } = options;
  return new RateGate({
    windowMs: options.rateWindowMs,
    maxWaitMs: options.maxWaitMs,
    onWait: onWait && ((ms, reason) => onWait({ ms, origin, reason })),
    onLearn: onRateLearned && ((limit, windowMs) => onRateLearned({ origin, limit, windowMs })),
    onPace: (pace) => waits.start(origin, pace),
    clock: options.clock,
  });
}

/**
 * Waits for a server's rate budget, told as they happen (DESIGN §5): `start` when the gate, which decides the
 * wait, begins one of a second or more, and `end`, with its length, when the first request it held goes.
 */
function rateWaits(options: SchedulerOptions) {
  const open = new Map<string, { since: number; limit: number; windowMs: number }>();
  return {
    start(origin: string, pace: { ms: number; limit: number; windowMs: number }): void {
      open.set(origin, { since: options.clock.now(), limit: pace.limit, windowMs: pace.windowMs });
      options.onProgress?.({ kind: "rate-wait", phase: "start", origin, ...pace });
    },
    end(origin: string): void {
      const wait = open.get(origin);
      if (!wait) return;
      open.delete(origin);
      const { since, limit, windowMs } = wait;
      options.onProgress?.({ kind: "rate-wait", phase: "end", origin, ms: options.clock.now() - since, limit, windowMs });
    },
  };
}
