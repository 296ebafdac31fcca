/**
 * Pacing for one API origin from `X-RateLimit-Limit`/`X-RateLimit-Remaining` (API-NOTES §1, DESIGN §6), so
 * that a run normally receives no 429.
 *
 * The server (Laravel's `throttle:60,1`) counts hits in a fixed window that starts at the first hit after the
 * previous one expired. The headers give the count but not the window, so its length is an option
 * (`rateWindowMs`) that a 429's `Retry-After` corrects. Its start is estimated from the receive time of the
 * first response that showed a refilled counter: the server processed that request before we received the
 * answer, so the estimate is never earlier than the true start, and the estimated end never earlier than
 * the true end.
 */

import { type Clock, systemClock } from "./clock.ts";

/** What one response said about the rate limit. */
export interface RateInfo {
  limit?: number;
  remaining?: number;
  /** A 429: the server refused the request for rate reasons. */
  throttled?: boolean;
  /** On a 429, when the server says a request will be accepted again (epoch ms). */
  retryAt?: number;
  /** The header that set `retryAt`, as received (digits or a date only), for the message when it is too far. */
  waitHeader?: string;
}

/** The state a request was sent under, used to tell a refilled counter from answers arriving out of order. */
export interface RateTicket {
  sentAt: number;
  windowId: number;
  seenMin: number | undefined;
}

/** Reads the rate-limit headers of a response received at `now`. */
export function rateInfoOf(status: number, headers: Headers, now: number): RateInfo {
  const info: RateInfo = {};
  const limit = intHeader(headers, "x-ratelimit-limit");
  const remaining = intHeader(headers, "x-ratelimit-remaining");
  if (limit !== undefined) info.limit = limit;
  if (remaining !== undefined) info.remaining = remaining;
  if (status !== 429) return info;
  info.throttled = true;
  const wait = retryAfterOf(headers, now) ?? resetOf(headers, now);
  if (wait) Object.assign(info, wait);
  return info;
}

/**
 * `Retry-After` as seconds or an HTTP date (RFC 9110 §10.2.3), as the time to retry at (epoch ms); a date in
 * the past means now. A negative, fractional or garbage value counts as no value (DESIGN §12): `Date.parse`
 * alone would read "1" as the year 2001, so only the IMF-fixdate form is taken as a date.
 */
export function retryAfterOf(headers: Headers, now: number): { retryAt: number; waitHeader: string } | undefined {
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  const waitHeader = `Retry-After: ${value}`;
  if (/^\d{1,15}$/.test(value)) return { retryAt: now + Number(value) * 1000, waitHeader };
  if (!HTTP_DATE.test(value) || Number.isNaN(Date.parse(value))) return undefined;
  return { retryAt: Math.max(now, Date.parse(value)), waitHeader };
}

const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Laravel's `X-RateLimit-Reset`: a unix timestamp of the server's clock (API-NOTES §1). */
function resetOf(headers: Headers, now: number): { retryAt: number; waitHeader: string } | undefined {
  const reset = intHeader(headers, "x-ratelimit-reset");
  if (reset === undefined) return undefined;
  return { retryAt: Math.max(now, reset * 1000), waitHeader: `X-RateLimit-Reset: ${reset}` };
}

function intHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)?.trim();
  return value && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

export class RateGate {
  /** `undefined` until the first answer: then one request probes whether the server sends headers at all. */
  #paced: boolean | undefined;
  #limit = 0;
  #windowMs: number;
  #windowId = 0;
  #windowStart: number | undefined;
  #windowEnd = 0;
  /** The lowest `remaining` seen in the current window (the server's count, minus hits not yet answered). */
  #remaining = 0;
  #seenMin: number | undefined;
  /** The window's estimated end passed and the budget was assumed refilled, before any answer confirmed it. */
  #refilled = false;
  #inFlight = 0;
  #pausedUntil = 0;
  #changed = Promise.withResolvers<void>();

  /** A 429 asking for a longer pause ends the run (`http.ts`), so the gate must not hold anyone that long. */
  #maxWaitMs: number;

  /** Told of every pause a server asks for that holds the run up (DESIGN §12: the run reports its waits). */
  #onWait: ((ms: number, reason: string) => void) | undefined;

  #clock: Clock;

  constructor(windowMs: number, maxWaitMs = Infinity, onWait?: (ms: number, reason: string) => void, clock: Clock = systemClock) {
    this.#windowMs = windowMs;
    this.#maxWaitMs = maxWaitMs;
    this.#onWait = onWait;
    this.#clock = clock;
  }

  /** Waits until a request may be sent under the budget, then reserves one unit for it. */
  async acquire(stop?: AbortSignal): Promise<RateTicket> {
    for (;;) {
      stop?.throwIfAborted();
      const now = this.#clock.now();
      const wait = this.#waitMs(now);
      if (wait <= 0) {
        this.#inFlight++;
        return { sentAt: now, windowId: this.#windowId, seenMin: this.#seenMin };
      }
      await this.#sleepOrChange(wait, stop);
    }
  }

  /** Returns the unit reserved by `acquire` and learns from the answer (none when the request failed). */
  settle(ticket: RateTicket, info: RateInfo | undefined, receivedAt: number): void {
    this.#inFlight--;
    if (info?.throttled) {
      this.#onThrottled(info, receivedAt);
    } else if (info?.limit !== undefined && info.remaining !== undefined) {
      this.#observe(ticket, info.limit, info.remaining, receivedAt);
    } else if (this.#paced === undefined) {
      // A failed probe proves nothing; an answer without headers means the server does not pace us.
      this.#paced = info === undefined ? undefined : false;
    } else if (this.#paced && !this.#refilled) {
      this.#remaining--; // no count came back: assume the hit was counted
    }
    this.#notify();
  }

  /** 0 to send now, else how long to wait. Infinity (wait for an answer) only while something is in flight. */
  #waitMs(now: number): number {
    if (now < this.#pausedUntil) return this.#pausedUntil - now;
    if (this.#paced === undefined) return this.#inFlight > 0 ? Infinity : 0;
    if (!this.#paced || this.#remaining - this.#inFlight > 0) return 0;
    if (now < this.#windowEnd) return this.#windowEnd - now;
    if (!this.#refilled) {
      this.#refilled = true;
      // At least one: a 429 from a proxy may come without any limit to refill to.
      this.#remaining = Math.max(1, this.#limit);
      return this.#waitMs(now);
    }
    if (this.#inFlight > 0) return Infinity;
    // Refilled, all spent, and no answer told us anything (requests failed): wait out one more window.
    this.#refilled = false;
    this.#remaining = 0;
    this.#windowEnd = now + this.#windowMs + this.#margin();
    return this.#windowEnd - now;
  }

  #observe(ticket: RateTicket, limit: number, remaining: number, receivedAt: number): void {
    this.#paced = true;
    this.#limit = limit;
    const sameWindow = ticket.windowId === this.#windowId;
    // Within one window a request sent after we saw `remaining = m` must come back below m, and one sent after
    // the window's (over-estimated) end is in a new window: either proves a refill.
    const refilled =
      this.#windowStart === undefined ||
      (sameWindow && ((ticket.seenMin !== undefined && remaining >= ticket.seenMin) || ticket.sentAt >= this.#windowEnd));
    if (refilled) {
      this.#windowId++;
      this.#windowStart = receivedAt;
      this.#windowEnd = receivedAt + this.#windowMs + this.#margin();
      this.#remaining = remaining;
      this.#seenMin = remaining;
      this.#refilled = false;
    } else if (!this.#refilled) {
      // Late answers (possibly from the previous window) only ever lower the budget: safe.
      this.#remaining = Math.min(this.#remaining, remaining);
      this.#seenMin = Math.min(this.#seenMin ?? remaining, remaining);
    }
  }

  #onThrottled(info: RateInfo, receivedAt: number): void {
    // The run ends on this answer: let the requests queued here go on to be refused at once.
    if (info.retryAt !== undefined && info.retryAt - receivedAt > this.#maxWaitMs) return;
    this.#paced = true;
    if (info.limit !== undefined) this.#limit = info.limit;
    const retryAt = info.retryAt ?? Math.max(this.#windowEnd, receivedAt + 1000);
    // Reported once per pause, not once per request that the same 429 holds up.
    if (retryAt > this.#pausedUntil) this.#onWait?.(retryAt - receivedAt, info.waitHeader ?? "429 without Retry-After");
    this.#pausedUntil = Math.max(this.#pausedUntil, retryAt);
    // The server says when this window ends. `retryAt - start` approximates the true window (Retry-After
    // rounds up; our start estimate is late by at most one round trip): learn it when longer than believed.
    if (this.#windowStart !== undefined) this.#windowMs = Math.max(this.#windowMs, retryAt - this.#windowStart);
    // Retry-After rounds up, so the server's word is a safe end even when our estimate was later.
    this.#windowEnd = retryAt;
    this.#remaining = 0;
    this.#refilled = false;
  }

  /** Slack for the server's whole-second clock and our receive delay. */
  #margin(): number {
    return Math.min(1000, Math.ceil(this.#windowMs * 0.02));
  }

  #notify(): void {
    const previous = this.#changed;
    this.#changed = Promise.withResolvers<void>();
    previous.resolve();
  }

  async #sleepOrChange(ms: number, stop?: AbortSignal): Promise<void> {
    // Aborted once this wait is over, so that neither the clock's timer nor a listener on `stop` outlives it.
    const woken = new AbortController();
    const signal = stop ? AbortSignal.any([woken.signal, stop]) : woken.signal;
    const elapsed = ms === Infinity ? untilAborted(signal) : this.#clock.sleep(ms, signal);
    await Promise.race([this.#changed.promise, elapsed]);
    woken.abort();
  }
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
