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
  rateWindowMs: number;
  /** No pause longer than this: a server asking for more ends the run instead (DESIGN §12). */
  maxWaitMs?: number;
  /** Once aborted, requests still waiting for a slot or the rate budget are not sent (they reject). */
  stop?: AbortSignal;
  /** Told of each pause a server asks for (a 429's Retry-After), before the run waits it out. */
  onWait?: ((wait: ServerWait) => void) | undefined;
  clock: Clock;
  /** Told when requests to a server have waited a second or more for its rate budget, and when that wait ends. */
  onProgress?: ((event: ReadProgress) => void) | undefined;
}

/** A wait for the rate budget shorter than this is pacing as usual, not worth a line (DESIGN §5). */
const SAID_WAIT_MS = 1000;

/**
 * What a read is doing, as data (DESIGN §5: nothing is silent): a page of a full listing read (of how many,
 * when the server says), a re-read after an integrity mismatch and why, or a wait for the rate budget of a
 * server that lasts a second or more (`start`, then `end` with its length).
 */
export type ReadProgress =
  | { kind: "page"; noun: string; read: number; of?: number }
  | { kind: "reread"; noun: string; attempt: number; of: number; problem: string }
  | { kind: "rate-wait"; phase: "start" | "end"; origin: string; ms: number; limit?: number; windowMs: number };

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
    const onWait = options.onWait && ((ms: number, reason: string) => options.onWait?.({ ms, origin, reason }));
    if (!gate) {
      gate = new RateGate(options.rateWindowMs, options.maxWaitMs, onWait, options.clock);
      gates.set(origin, gate);
    }
    return gate;
  };

  const waits = rateWaits(options);
  return {
    run(origin, attempt) {
      return limit(async () => {
        const gate = gateFor(origin);
        options.stop?.throwIfAborted();
        const ticket = await waits.around(origin, () => gate.acquire(options.stop));
        let rate: RateInfo | undefined;
        try {
          const result = await attempt();
          rate = result.rate;
          if (rate?.limit !== undefined) waits.limits.set(origin, rate.limit);
          return result;
        } finally {
          gate.settle(ticket, rate, options.clock.now());
        }
      });
    },
  };
}

/**
 * Waits for a server's rate budget, told as they happen: `start` once requests to the server have waited a
 * second, `end` (with the length) when the first of them goes. Requests held by the same window make one
 * wait, not one each. Measured around the gate, which decides the wait (rate-gate.ts).
 */
function rateWaits(options: SchedulerOptions) {
  const limits = new Map<string, number>();
  const open = new Map<string, number>();
  const tell = (origin: string, phase: "start" | "end", ms: number) => {
    const limit = limits.get(origin);
    options.onProgress?.({ kind: "rate-wait", phase, origin, ms, windowMs: options.rateWindowMs, ...(limit ? { limit } : {}) });
  };
  return {
    limits,
    async around<T>(origin: string, acquire: () => Promise<T>): Promise<T> {
      if (!options.onProgress) return acquire();
      const started = Date.now();
      let said = false;
      const timer = setTimeout(() => {
        said = true;
        if (open.has(origin)) return;
        open.set(origin, started);
        tell(origin, "start", Date.now() - started);
      }, SAID_WAIT_MS);
      try {
        return await acquire();
      } finally {
        clearTimeout(timer);
        const since = open.get(origin);
        if (said && since !== undefined) {
          open.delete(origin);
          tell(origin, "end", Date.now() - since);
        }
      }
    },
  };
}
