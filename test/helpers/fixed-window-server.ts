/**
 * A simulated rate-limited server for pacing tests (API-NOTES §1): Laravel's throttle is a fixed window opened
 * by the first hit after the previous one expired and anchored there; a refused request is not counted.
 *
 * Laravel keeps time in whole seconds, and how a window really ends depends on its cache store:
 * - `exact`: the window lasts `windowMs` from its first hit (Redis' TTL, and the sandbox's throttle), while
 *   Retry-After is Laravel's `timer - now` in whole seconds, up to one second short of the real end;
 * - `whole-second`: the window ends at the whole second its first hit fell in, plus `windowMs` (the file and
 *   database stores keep an expiry timestamp in seconds), so a window lasts between `windowMs - 1 s` and
 *   `windowMs`.
 */

export type WindowClock = "exact" | "whole-second";

export interface FixedWindowOptions {
  limit: number;
  windowMs: number;
  clock?: WindowClock;
}

export interface Answer {
  status: 200 | 429;
  headers: Headers;
}

export class FixedWindowServer {
  readonly limit: number;
  windowMs: number;
  readonly #clock: WindowClock;
  #hits = 0;
  #end = Number.NEGATIVE_INFINITY;
  #timer = 0;
  /** Every window the server opened: when, and when it ended (ms). */
  readonly windows: { openedAt: number; endsAt: number }[] = [];
  throttled = 0;

  constructor(options: FixedWindowOptions) {
    this.limit = options.limit;
    this.windowMs = options.windowMs;
    this.#clock = options.clock ?? "exact";
  }

  /** Counts one request that reached the server at `now` (epoch ms) and answers it. */
  hit(now: number): Answer {
    if (now >= this.#end) this.#open(now);
    if (this.#hits >= this.limit) {
      this.throttled++;
      // Laravel's availableIn(): the timer's whole second minus the current whole second.
      const retryAfter = Math.max(0, Math.round((this.#timer - wholeSecond(now)) / 1000));
      return {
        status: 429,
        headers: new Headers({
          "X-RateLimit-Limit": String(this.limit),
          "X-RateLimit-Remaining": "0",
          "Retry-After": String(retryAfter),
          "X-RateLimit-Reset": String(wholeSecond(now) / 1000 + retryAfter),
        }),
      };
    }
    this.#hits++;
    return {
      status: 200,
      headers: new Headers({ "X-RateLimit-Limit": String(this.limit), "X-RateLimit-Remaining": String(this.limit - this.#hits) }),
    };
  }

  /** Hits by another client at `now` (another run on the same address): they open a window as any hit does. */
  spend(now: number, hits: number): void {
    for (let i = 0; i < hits; i++) this.hit(now);
  }

  #open(now: number): void {
    this.#hits = 0;
    this.#timer = wholeSecond(now) + this.windowMs;
    this.#end = this.#clock === "exact" ? now + this.windowMs : this.#timer;
    this.windows.push({ openedAt: now, endsAt: this.#end });
  }
}

function wholeSecond(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}
