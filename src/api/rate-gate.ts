/**
 * Pacing for one API origin from `X-RateLimit-Limit`/`X-RateLimit-Remaining` (API-NOTES §1, DESIGN §6), so
 * that a run normally receives no 429.
 *
 * The server (Laravel's `throttle:60,1`) counts hits in a fixed window that starts at the first hit after the
 * previous one expired. The headers give the count but never the window (DESIGN §6: the window is learned).
 * A window's start is estimated from the receive time of the first response that showed a refilled counter:
 * the server processed that request before we received the answer, so the estimate `start` is never earlier
 * than the true start; the send time of the request that opened it (`openedAfter`) is never later.
 *
 * Learning keeps two proven bounds of the window W:
 * - `hi` (W ≤ hi): a counter that jumped back, received at t, proves the previous window ended by t, so
 *   W ≤ t - openedAfter; a 429's Retry-After (rounded up to whole seconds) proves W ≤ retryAt - openedAfter.
 * - `lo` (W > lo): an answer counted in the window, for a request sent at t, proves W > t - start.
 * Until `hi` is known the gate paces as if the window were the guess (the real API's minute). It keeps the
 * last few units of each window as probes, sent at chosen times within (lo, hi) or below the guess: a probe
 * past the true end shows the counter jumped back (lowering `hi`), one before it raises `lo`. Probes are
 * budget, so they never cause a 429. The only request sent at risk is the one past a guessed end with the
 * budget spent: on a longer window it is answered 429, whose Retry-After gives `hi`, and nothing is ever
 * sent at risk again. Once `hi` is within 5% of `lo` the window is learned, announced, and paced by `hi`.
 * A window said outright (`--rate-window`) is used as it is: nothing is probed or announced.
 */

import { type Clock, systemClock } from "./clock.ts";

/** The real API's window (`throttle:60,1`, API-NOTES §1), assumed until one is learned. */
export const GUESSED_WINDOW_MS = 60_000;

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
  /** The window's start estimate when it was sent: `sentAt - start` bounds the window from below. */
  start: number | undefined;
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

export interface RateGateOptions {
  /** The window said outright (`--rate-window`): used as it is, nothing is learned. */
  windowMs?: number | undefined;
  /** A 429 asking for a longer pause ends the run (`http.ts`), so the gate must not hold anyone that long. */
  maxWaitMs?: number | undefined;
  /** Told of every pause a server asks for that holds the run up (DESIGN §12: the run reports its waits). */
  onWait?: ((ms: number, reason: string) => void) | undefined;
  /** Told once when the window is learned: `limit` requests per `windowMs`. */
  onLearn?: ((limit: number, windowMs: number) => void) | undefined;
  /**
   * Told when the budget is spent and requests wait a second or more for the window to pass (DESIGN §5), once
   * per wait however many requests it holds: how long, and the limit and window it paces by.
   */
  onPace?: ((pace: { ms: number; limit: number; windowMs: number }) => void) | undefined;
  clock?: Clock | undefined;
}

/** A wait for the rate budget shorter than this is pacing as usual, not worth a word (DESIGN §5). */
const SAID_PACE_MS = 1000;

/** A learned window that would hold the run longer than `--max-wait`: `http.ts` ends the run with it. */
export class RateWindowTooLong extends Error {
  readonly waitMs: number;
  readonly limit: number;
  readonly windowMs: number;
  constructor(waitMs: number, limit: number, windowMs: number) {
    super(`the rate limit's window needs a wait of ${waitMs} ms`);
    this.waitMs = waitMs;
    this.limit = limit;
    this.windowMs = windowMs;
  }
}

/**
 * Probes kept per window while learning (at most one unit in five), where they go in a window while no upper
 * bound is known (fractions of the guess: early ones catch a shorter window, the last two pin the guess), and
 * how close the bounds must be to call the window learned.
 */
const MAX_PROBES = 6;
const EARLY_PROBES = [1 / 16, Math.SQRT2 / 16, 1 / 8, 1 / 4];
const GUESS_PROBES = [0.97, 1];
const LEARNED_RATIO = 1.05;

export class RateGate {
  /** `undefined` until the first answer: then one request probes whether the server sends headers at all. */
  #paced: boolean | undefined;
  #limit = 0;
  #given: number | undefined;
  #lo = 0;
  #hi: number | undefined;
  #learned = false;
  #windowId = 0;
  #windowStart: number | undefined;
  /** No later than the true start of the current window: the send time of the request that opened it. */
  #openedAfter = 0;
  #windowEnd = 0;
  /** `#windowEnd` is proven (said, learned, or a 429's): a request sent after it is in a new window. */
  #endProven = false;
  /** When the reserved last units of this window may be sent (absolute, ascending); empty: no probing. */
  #probes: number[] = [];
  /** The lowest `remaining` seen in the current window (the server's count, minus hits not yet answered). */
  #remaining = 0;
  #seenMin: number | undefined;
  /** The window's estimated end passed and the budget was assumed refilled, before any answer confirmed it. */
  #refilled = false;
  #inFlight = new Set<RateTicket>();
  /** Requests that may have been counted in the current window: those in flight when it showed, and since. */
  #countable = 0;
  /** The earliest send time of requests that failed in this window: one of them may have opened the next. */
  #failedSince: number | undefined;
  #pausedUntil = 0;
  /** When the last wait told to `onPace` ends: the requests it holds make one wait, not one each. */
  #pacedUntil = 0;
  #changed = Promise.withResolvers<void>();
  readonly #maxWaitMs: number;
  readonly #onWait: RateGateOptions["onWait"];
  readonly #onLearn: RateGateOptions["onLearn"];
  readonly #onPace: RateGateOptions["onPace"];
  readonly #clock: Clock;

  constructor(options: RateGateOptions = {}) {
    this.#given = options.windowMs;
    this.#maxWaitMs = options.maxWaitMs ?? Infinity;
    this.#onWait = options.onWait;
    this.#onLearn = options.onLearn;
    this.#onPace = options.onPace;
    this.#clock = options.clock ?? systemClock;
  }

  /** Waits until a request may be sent under the budget, then reserves one unit for it. */
  async acquire(stop?: AbortSignal): Promise<RateTicket> {
    for (;;) {
      stop?.throwIfAborted();
      const now = this.#clock.now();
      const wait = this.#waitMs(now);
      if (wait <= 0) {
        const ticket = { sentAt: now, start: this.#windowStart, windowId: this.#windowId, seenMin: this.#seenMin };
        this.#inFlight.add(ticket);
        this.#countable++;
        return ticket;
      }
      // A server's own pause is told by onWait; a wait for an answer in flight is not pacing.
      if (wait >= SAID_PACE_MS && wait !== Infinity && now >= this.#pausedUntil && now + wait > this.#pacedUntil) {
        this.#pacedUntil = now + wait;
        this.#onPace?.({ ms: wait, limit: this.#limit, windowMs: this.#window() });
      }
      await this.#sleepOrChange(wait, stop);
    }
  }

  /** Returns the unit reserved by `acquire` and learns from the answer (none when the request failed). */
  settle(ticket: RateTicket, info: RateInfo | undefined, receivedAt: number): void {
    this.#inFlight.delete(ticket);
    if (info?.throttled) {
      this.#onThrottled(ticket, info, receivedAt);
    } else if (info?.limit !== undefined && info.remaining !== undefined) {
      this.#observe(ticket, info.limit, info.remaining, receivedAt);
    } else if (this.#paced === undefined) {
      // A failed probe proves nothing; an answer without headers means the server does not pace us.
      this.#paced = info === undefined ? undefined : false;
    } else if (this.#paced && !this.#refilled) {
      this.#remaining--; // no count came back: assume the hit was counted
    }
    if (info === undefined) this.#failedSince = Math.min(this.#failedSince ?? ticket.sentAt, ticket.sentAt);
    this.#notify();
  }

  /** The window paced by: said, else learned (proven), else the guess. */
  #window(): number {
    return this.#given ?? this.#hi ?? GUESSED_WINDOW_MS;
  }

  /** 0 to send now, else how long to wait. Infinity (wait for an answer) only while something is in flight. */
  #waitMs(now: number): number {
    if (now < this.#pausedUntil) return this.#pausedUntil - now;
    if (this.#paced === undefined) return this.#inFlight.size > 0 ? Infinity : 0;
    const budget = this.#remaining - this.#inFlight.size;
    const reserved = this.#probes.length;
    if (!this.#paced || budget > reserved) return 0;
    if (budget > 0) return this.#probes[reserved - budget]! - now;
    if (now < this.#windowEnd) return this.#boundedWait(this.#windowEnd - now);
    if (!this.#refilled) {
      this.#refilled = true;
      this.#probes = [];
      // Past a guessed end, one request finds out (the only one ever sent at risk of a 429); past a proven
      // end, the whole budget. At least one: a 429 from a proxy may come without any limit to refill to.
      this.#remaining = this.#endProven ? Math.max(1, this.#limit) : 1;
      return this.#waitMs(now);
    }
    if (this.#inFlight.size > 0) return Infinity;
    // Refilled, all spent, and no answer told us anything (requests failed): wait out one more window.
    this.#refilled = false;
    this.#remaining = 0;
    this.#windowEnd = now + this.#window() + this.#margin();
    return this.#boundedWait(this.#windowEnd - now);
  }

  /** DESIGN §12: a learned window never holds the run longer than `--max-wait` without a word. */
  #boundedWait(ms: number): number {
    if (this.#given === undefined && this.#hi !== undefined && ms > this.#maxWaitMs) {
      throw new RateWindowTooLong(ms, this.#limit, this.#hi);
    }
    return ms;
  }

  #observe(ticket: RateTicket, limit: number, remaining: number, receivedAt: number): void {
    this.#paced = true;
    this.#limit = limit;
    const sameWindow = ticket.windowId === this.#windowId;
    // Within one window the count only grows: a request sent after we saw `remaining = m` must come back
    // below m, and one sent after a proven end is in a new window. Either proves a refill.
    const refilled =
      this.#windowStart === undefined ||
      (sameWindow &&
        ((ticket.seenMin !== undefined && remaining >= ticket.seenMin) || (this.#endProven && ticket.sentAt >= this.#windowEnd)));
    if (refilled) {
      const openedAfter = Math.min(ticket.sentAt, this.#failedSince ?? Infinity, ...[...this.#inFlight].map((t) => t.sentAt));
      // The previous window (opened no earlier than `#openedAfter`) had ended when this answer came back.
      if (this.#windowStart !== undefined) this.#bound("hi", receivedAt - this.#openedAfter, false);
      this.#windowId++;
      this.#windowStart = receivedAt;
      this.#openedAfter = openedAfter;
      this.#failedSince = undefined;
      this.#countable = 1 + this.#inFlight.size;
      this.#windowEnd = receivedAt + this.#window() + this.#margin();
      this.#endProven = this.#given !== undefined || this.#hi !== undefined;
      this.#remaining = remaining;
      this.#seenMin = remaining;
      this.#refilled = false;
      this.#probes = this.#planProbes(receivedAt);
      return;
    }
    // A late answer from the previous window: more hits than we could have made in this one (DESIGN §6:
    // one client per address). Lowering the budget by it would waste the window.
    if (!sameWindow && remaining < this.#limit - this.#countable) return;
    // Counted in the window it was sent in: the window had not ended when it was sent.
    if (sameWindow && ticket.start !== undefined) this.#bound("lo", ticket.sentAt - ticket.start, false);
    if (!this.#refilled) {
      // Late answers (possibly from the previous window) only ever lower the budget: safe.
      this.#remaining = Math.min(this.#remaining, remaining);
      this.#seenMin = Math.min(this.#seenMin ?? remaining, remaining);
    }
  }

  #onThrottled(ticket: RateTicket, info: RateInfo, receivedAt: number): void {
    // The run ends on this answer: let the requests queued here go on to be refused at once.
    if (info.retryAt !== undefined && info.retryAt - receivedAt > this.#maxWaitMs) return;
    this.#paced = true;
    if (info.limit !== undefined) this.#limit = info.limit;
    const retryAt = info.retryAt ?? Math.max(this.#windowEnd, receivedAt + 1000);
    // Reported once per pause, not once per request that the same 429 holds up.
    if (retryAt > this.#pausedUntil) this.#onWait?.(retryAt - receivedAt, info.waitHeader ?? "429 without Retry-After");
    this.#pausedUntil = Math.max(this.#pausedUntil, retryAt);
    const inThisWindow = this.#windowStart !== undefined && ticket.windowId === this.#windowId;
    if (this.#given !== undefined) {
      // Said outright, and proven too short: lengthen it rather than be refused every window.
      if (inThisWindow) this.#given = Math.max(this.#given, retryAt - this.#windowStart!);
    } else if (inThisWindow && info.retryAt !== undefined) {
      // Retry-After rounds up: the window ends by `retryAt`, and (whole seconds) not a second before it.
      const start = this.#windowStart!;
      this.#bound("lo", Math.max(ticket.sentAt - start, retryAt - 1000 - (receivedAt - ticket.sentAt) - start), false);
      // A 429 after `hi` was known was not expected (another client on this address, a server rounding
      // otherwise): the window is longer than `hi` said, so widen it rather than be refused again.
      this.#bound("hi", retryAt - this.#openedAfter, this.#hi !== undefined);
    }
    // Retry-After rounds up, so the server's word is a safe end even when our estimate was later.
    this.#windowEnd = retryAt;
    this.#endProven = true;
    this.#remaining = 0;
    this.#refilled = false;
    this.#probes = [];
  }

  /** Records a proven bound of the window; `widen` lets `hi` rise (a 429 the pacing did not expect). */
  #bound(which: "lo" | "hi", ms: number, widen: boolean): void {
    if (which === "lo") this.#lo = Math.max(this.#lo, ms);
    else this.#hi = this.#hi === undefined ? ms : widen ? Math.max(this.#hi, ms) : Math.min(this.#hi, ms);
    // Bounds that contradict each other come from someone else's hits: trust `hi`, the one pacing is safe by.
    if (this.#hi !== undefined && this.#lo >= this.#hi) this.#lo = 0;
    if (this.#learned || this.#hi === undefined || this.#hi > this.#lo * LEARNED_RATIO) return;
    this.#learned = true;
    this.#probes = [];
    this.#onLearn?.(this.#limit, shownWindow(this.#lo, this.#hi));
  }

  /**
   * When to send the last units of a window that starts at `start`, while the window is not learned: early
   * (a shorter window shows within a few windows) and just before and at the guess (the real API's window is
   * learned within one), or spread between the bounds. None when said, learned, or the limit is too small.
   */
  #planProbes(start: number): number[] {
    const count = Math.min(MAX_PROBES, Math.floor(this.#limit / 5));
    if (this.#given !== undefined || this.#learned || count === 0) return [];
    const lo = this.#lo;
    const hi = this.#hi;
    const fractions = count > GUESS_PROBES.length ? [...EARLY_PROBES.slice(0, count - GUESS_PROBES.length), ...GUESS_PROBES] : EARLY_PROBES;
    const offsets =
      hi === undefined
        ? fractions.map((f) => f * GUESSED_WINDOW_MS).filter((offset) => offset > lo)
        : Array.from({ length: count }, (_, i) => lo + ((hi - lo) * (i + 1)) / (count + 1));
    return offsets.slice(0, count).map((offset) => start + Math.round(offset));
  }

  /**
   * Slack for the server's whole-second clock and our receive delay; less for a learned window, whose bound
   * already holds the delays it was observed with.
   */
  #margin(): number {
    const share = this.#given === undefined && this.#hi !== undefined ? 0.01 : 0.02;
    return Math.min(1000, Math.ceil(this.#window() * share));
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

/** The window as announced: a whole number of seconds when one lies within the bounds, else the upper bound. */
function shownWindow(lo: number, hi: number): number {
  const whole = Math.floor(hi / 1000) * 1000;
  return whole > lo ? whole : Math.ceil(hi);
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
