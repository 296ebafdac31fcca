/**
 * Laravel's ThrottleRequests with the cache RateLimiter (API-NOTES §1): a fixed window that opens at the
 * first hit after the previous one expired. A refused request is not counted as a hit.
 */

export type ThrottleResult = { allowed: true; headers: Record<string, string> } | { allowed: false; headers: Record<string, string> };

export class Throttle {
  readonly #limit: number;
  readonly #windowMs: number;
  #hits = 0;
  #windowEnd = 0;

  constructor(limit: number, windowMs: number) {
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  /** Counts one request at `now` (epoch ms) and returns the headers it is answered with. */
  hit(now: number): ThrottleResult {
    if (now >= this.#windowEnd) {
      this.#hits = 0;
      this.#windowEnd = now + this.#windowMs;
    }
    const limit = String(this.#limit);
    if (this.#hits >= this.#limit) {
      // Laravel counts in whole seconds; never tell a client to retry after 0 s while it is still refused.
      const retryAfter = Math.max(1, Math.ceil((this.#windowEnd - now) / 1000));
      return {
        allowed: false,
        headers: {
          "X-RateLimit-Limit": limit,
          "X-RateLimit-Remaining": "0",
          "Retry-After": String(retryAfter),
          "X-RateLimit-Reset": String(Math.floor(now / 1000) + retryAfter),
        },
      };
    }
    this.#hits++;
    return { allowed: true, headers: { "X-RateLimit-Limit": limit, "X-RateLimit-Remaining": String(this.#limit - this.#hits) } };
  }
}
