/** Seeded fault injection: which requests fail, hang up, answer slowly or drop after committing. */
import { prng } from "./_seed.ts";
import type { FaultOptions } from "./types.ts";

/** What to do to one request. `pre` faults happen instead of the work; `drop` and `slowMs` after it. */
export interface FaultPlan {
  pre?: "error" | "reset";
  slowMs?: number;
  drop?: boolean;
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export class FaultInjector {
  readonly #options: FaultOptions;
  readonly #random: () => number;
  readonly #methods: Set<string> | undefined;

  constructor(options: FaultOptions | undefined) {
    this.#options = options ?? {};
    this.#random = prng(this.#options.seed ?? 1);
    this.#methods = this.#options.methods ? new Set(this.#options.methods.map((m) => m.toUpperCase())) : undefined;
  }

  /**
   * Decides the faults of the next eligible request. Every eligible request draws the same three numbers,
   * whatever the rates, so one seed replays the same faults for the same request sequence.
   */
  plan(method: string): FaultPlan {
    if (this.#methods && !this.#methods.has(method)) return {};
    const { errorRate = 0, resetRate = 0, slowRate = 0, slowMs = 0, dropAfterCommitRate = 0 } = this.#options;
    const [pre, slow, drop] = [this.#random(), this.#random(), this.#random()];
    if (pre < errorRate) return { pre: "error" };
    if (pre < errorRate + resetRate) return { pre: "reset" };
    const plan: FaultPlan = {};
    if (slow < slowRate && slowMs > 0) plan.slowMs = slowMs;
    if (WRITES.has(method) && drop < dropAfterCommitRate) plan.drop = true;
    return plan;
  }
}
