import pLimit from "p-limit";
import type { Clock } from "./clock.ts";
import { RateGate, type RateInfo } from "./rate-gate.ts";

/** One per client, so one per run: every request of every API goes through it (DESIGN §6). */
export interface Scheduler {
  /**
   * Runs one HTTP attempt once a concurrency slot is free and the origin's rate budget allows it, then lets
   * the pacing learn from the `rate` the attempt reports (undefined when no answer arrived).
   */
  run<T extends { rate?: RateInfo | undefined }>(origin: string, attempt: () => Promise<T>): Promise<T>;
}

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
}

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
  const gateFor = (origin: string): RateGate => {
    let gate = gates.get(origin);
    if (!gate) {
      const { onWait, onRateLearned } = options;
      gate = new RateGate({
        windowMs: options.rateWindowMs,
        maxWaitMs: options.maxWaitMs,
        onWait: onWait && ((ms, reason) => onWait({ ms, origin, reason })),
        onLearn: onRateLearned && ((limit, windowMs) => onRateLearned({ origin, limit, windowMs })),
        clock: options.clock,
      });
      gates.set(origin, gate);
    }
    return gate;
  };

  return {
    run(origin, attempt) {
      return limit(async () => {
        const gate = gateFor(origin);
        options.stop?.throwIfAborted();
        const ticket = await gate.acquire(options.stop);
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
