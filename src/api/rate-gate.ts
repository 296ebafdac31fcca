/**
 * Pacing for one API origin from `X-RateLimit-Limit`/`X-RateLimit-Remaining` (API-NOTES §1, DESIGN §6), so
 * that a run receives at most one 429 per server, on a loaded machine too.
 *
 * The server (Laravel's `throttle:60,1`) counts hits in a fixed window opened by the first hit after the
 * previous one expired. The headers give the count but never the window: it is learned (`rate-window.ts`).
 * Every bound comes from times a late event loop can only make safer: a request's send time is taken before
 * it leaves (no later than the server counted it), an answer's receive time after it was read (no earlier).
 * - A window shows when an answer's count is at or above the lowest count seen before its request left: the
 *   count only falls within a window. Its start is estimated by that answer's receipt (never early).
 * - Who opened it is one of the requests that could have been counted in it first: that answer's, those
 *   unanswered when it left, those sent after it, those that failed, and answers read before it left with a
 *   higher count. Their earliest send time is no later than the window's start, so the window's end, seen
 *   later, bounds its length from above. When the count shows more hits than those requests (another run
 *   on the same address spent part of the window, DESIGN §8), the window gives no such bound.
 * - A 429 for a request sent before the current window showed is a late answer from a window already over:
 *   it is neither a pause nor a bound.
 * Until the window is learned the gate keeps the last few units of each window as probes, sent at chosen
 * times, so that one past the true end shows the refill. Past the window's expected end, one request (the
 * scout) goes alone and the rest wait for its answer: never the whole concurrency into a window that may
 * still be closed. On a window longer than expected, the scout's 429 is the only one, and its Retry-After
 * bounds the window. A window said outright (`--rate-window`) is used as it is: nothing is probed or announced.
 */

import { type Clock, sleepOrChange, systemClock } from "./clock.ts";
import type { RateInfo } from "./rate-info.ts";
import { openerBound, type RateTicket, type WindowSeen } from "./rate-opener.ts";
import { marginOf, probeTimes, type RateState, RateWindowTooLong, WindowBounds } from "./rate-window.ts";

export type { RateTicket } from "./rate-opener.ts";

export interface RateGateOptions {
  /** The window said outright (`--rate-window`): used as it is, nothing is learned. */
  windowMs?: number | undefined;
  /** A 429 asking for a longer pause ends the run (`http.ts`), so the gate must not hold anyone that long. */
  maxWaitMs?: number | undefined;
  /** Told of every pause a server asks for that holds the run up (DESIGN §12: the run reports its waits). */
  onWait?: ((ms: number, reason: string) => void) | undefined;
  /** Told when the window is learned (again, if the server's window grows): `limit` requests per `windowMs`. */
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
/** Retry-After and X-RateLimit-Reset count whole seconds of the server's clock: the window may end up to one later. */
const WHOLE_SECOND_MS = 1000;

export class RateGate {
  /** `undefined` until the first answer: then one request probes whether the server sends headers at all. */
  #paced: boolean | undefined;
  #limit = 0;
  #given: number | undefined;
  readonly #bounds = new WindowBounds();
  #window: WindowSeen | undefined;
  /** When the current window is expected to be over (or a 429 said it would be). */
  #end = 0;
  /** When the reserved last units of this window may be sent (absolute, ascending); empty: no probing. */
  #probes: number[] = [];
  /** The budget left in the current window (the server's count, minus hits not yet answered). */
  #remaining = 0;
  /** The lowest count an answer from the current window showed, and when its request was sent. */
  #lowest: RateTicket["lowest"];
  /** Past the expected end: one request finds out, the rest wait for its answer. */
  #scouting = false;
  #scout: RateTicket | undefined;
  /** Requests that failed since the current window showed (no count came back): one may open the next. */
  #failed = { count: 0, since: Infinity };
  #sent = 0;
  #inFlight = new Set<RateTicket>();
  #pausedUntil = 0;
  /** When the last wait told to `onPace` ends: the requests it holds make one wait, not one each. */
  #pacedUntil = 0;
  #changed = Promise.withResolvers<void>();
  readonly #maxWaitMs: number;
  readonly #options: RateGateOptions;
  readonly #clock: Clock;

  constructor(options: RateGateOptions = {}) {
    this.#given = options.windowMs;
    this.#maxWaitMs = options.maxWaitMs ?? Infinity;
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
  }

  /** Waits until a request may be sent under the budget, then reserves one unit for it. */
  async acquire(stop?: AbortSignal): Promise<RateTicket> {
    for (;;) {
      stop?.throwIfAborted();
      const now = this.#clock.now();
      const wait = this.#waitMs(now);
      if (wait <= 0) return this.#send(now);
      // A server's own pause is told by onWait; a wait for an answer in flight is not pacing.
      if (wait >= SAID_PACE_MS && wait !== Infinity && now >= this.#pausedUntil && now + wait > this.#pacedUntil) {
        this.#pacedUntil = now + wait;
        this.#options.onPace?.({ ms: wait, limit: this.#limit, windowMs: this.#pacing() });
      }
      await sleepOrChange(this.#clock, wait, this.#changed.promise, stop);
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
    } else if (this.#paced && !this.#scouting) {
      this.#remaining--; // no count came back: assume the hit was counted
    }
    const counted = info?.throttled || (info?.limit !== undefined && info.remaining !== undefined);
    if (!counted) this.#failed = { count: this.#failed.count + 1, since: Math.min(this.#failed.since, ticket.sentAt) };
    this.#notify();
  }

  /** What the gate knows now, for the plan's estimate (DESIGN §5); undefined while the server sends no limit. */
  state(): RateState | undefined {
    if (!this.#paced) return undefined;
    const now = this.#clock.now();
    const open = this.#window !== undefined && !this.#scouting && now < this.#end;
    const budget = open
      ? { remaining: Math.max(0, this.#remaining - this.#inFlight.size), refillsInMs: this.#end - now }
      : { remaining: this.#limit, refillsInMs: 0 };
    return { limit: this.#limit, windowMs: this.#given ?? this.#bounds.pacing, budget };
  }

  #send(now: number): RateTicket {
    let since = Infinity;
    for (const t of this.#inFlight) since = Math.min(since, t.sentAt);
    const ticket: RateTicket = {
      seq: ++this.#sent,
      sentAt: now,
      windowId: this.#window?.id ?? 0,
      lowest: this.#lowest,
      pending: { count: this.#inFlight.size, since },
    };
    this.#inFlight.add(ticket);
    if (this.#window) this.#window.countable++;
    if (this.#scouting) this.#scout = ticket;
    return ticket;
  }

  /** The window paced by: said, else learned, else the upper bound, else the guess. */
  #pacing(): number {
    return this.#given ?? this.#bounds.pacing;
  }

  /** 0 to send now, else how long to wait. Infinity (wait for an answer) only while something is in flight. */
  #waitMs(now: number): number {
    if (now < this.#pausedUntil) return this.#pausedUntil - now;
    if (this.#paced === undefined) return this.#inFlight.size > 0 ? Infinity : 0;
    if (!this.#paced) return 0;
    if (!this.#scouting) {
      const budget = this.#remaining - this.#inFlight.size;
      const reserved = this.#probes.length;
      if (budget > reserved) return 0;
      if (budget > 0) return this.#probes[reserved - budget]! - now;
      if (now < this.#end) return this.#boundedWait(this.#end - now);
      this.#scouting = true;
      this.#scout = undefined;
      this.#probes = [];
    }
    if (this.#scout === undefined) return 0;
    if (this.#inFlight.has(this.#scout)) return Infinity;
    // The scout came back without a count (it failed): wait out one more window before the next.
    this.#scouting = false;
    this.#remaining = 0;
    this.#end = now + this.#pacing() + marginOf(this.#pacing());
    return this.#boundedWait(this.#end - now);
  }

  /** DESIGN §12: a learned window never holds the run longer than `--max-wait` without a word. */
  #boundedWait(ms: number): number {
    const hi = this.#bounds.hi;
    if (this.#given === undefined && hi !== undefined && ms > this.#maxWaitMs) throw new RateWindowTooLong(ms, this.#limit, hi);
    return ms;
  }

  #observe(ticket: RateTicket, limit: number, remaining: number, receivedAt: number): void {
    this.#paced = true;
    this.#limit = limit;
    const window = this.#window;
    const sameWindow = window !== undefined && ticket.windowId === window.id;
    if (!window || (sameWindow && ticket.lowest !== undefined && remaining >= ticket.lowest.remaining)) {
      this.#open(ticket, remaining, receivedAt);
      return;
    }
    window.answers.push({ sentAt: ticket.sentAt, receivedAt, remaining });
    // A late answer from an earlier window: more hits than we could have made in this one (DESIGN §6: one
    // client per address). Lowering the budget by it would waste the window.
    if (!sameWindow && remaining < limit - window.countable) return;
    if (sameWindow) {
      // Counted in the window it was sent in: the window had not ended when it was sent.
      this.#learn(this.#bounds.atLeast(ticket.sentAt - window.start));
      if (remaining < (this.#lowest?.remaining ?? Infinity)) this.#lowest = { remaining, sentAt: ticket.sentAt };
    }
    // Answers that may come from an earlier window only ever lower the budget: safe.
    if (!this.#scouting) this.#remaining = Math.min(this.#remaining, remaining);
    else if (ticket === this.#scout) {
      // The scout was counted in the same window: it had not ended, and the server says what is left.
      this.#scouting = false;
      this.#remaining = remaining;
    }
  }

  /** A new window showed in the answer to `ticket`, received at `at`. */
  #open(ticket: RateTicket, remaining: number, at: number): void {
    const previous = this.#window;
    // The previous window had ended when this answer came back, and had not opened before `openedAfter`.
    if (previous?.openedAfter !== undefined) this.#learn(this.#bounds.atMost(at - previous.openedAfter));
    const openedAfter = openerBound(ticket, remaining, this.#limit, { previous, failed: this.#failed, sent: this.#sent });
    this.#window = {
      id: (previous?.id ?? 0) + 1,
      start: at,
      openedAfter,
      answers: [{ sentAt: ticket.sentAt, receivedAt: at, remaining }],
      countable: 1 + this.#inFlight.size,
    };
    this.#failed = { count: 0, since: Infinity };
    this.#end = at + this.#pacing() + marginOf(this.#pacing());
    this.#remaining = remaining;
    this.#lowest = { remaining, sentAt: ticket.sentAt };
    this.#scouting = false;
    const learning = this.#given === undefined && this.#bounds.learned === undefined;
    this.#probes = learning ? probeTimes(at, this.#limit, this.#bounds, openedAfter !== undefined) : [];
  }

  #onThrottled(ticket: RateTicket, info: RateInfo, receivedAt: number): void {
    // The run ends on this answer: let the requests queued here go on to be refused at once.
    if (info.retryAt !== undefined && info.retryAt - receivedAt > this.#maxWaitMs) return;
    this.#paced = true;
    if (info.limit !== undefined) this.#limit = info.limit;
    const window = this.#window;
    if (window && ticket.windowId !== window.id) return;
    const end = info.retryAt !== undefined ? info.retryAt + WHOLE_SECOND_MS : Math.max(this.#end, receivedAt + WHOLE_SECOND_MS);
    // Reported once per pause, not once per request that the same 429 holds up; the server's own words.
    if (end > this.#pausedUntil) this.#options.onWait?.((info.retryAt ?? end) - receivedAt, info.waitHeader ?? "429 without Retry-After");
    this.#pausedUntil = Math.max(this.#pausedUntil, end);
    if (window && this.#given !== undefined) {
      // Said outright, and proven too short: lengthen it rather than be refused every window.
      this.#given = Math.max(this.#given, end - window.start);
    } else if (window && info.retryAt !== undefined) this.#learnFrom429(ticket, info.retryAt, receivedAt, window);
    this.#end = end;
    this.#remaining = 0;
    // The window is full: a request sent after this answer and counted is in a later one.
    this.#lowest = { remaining: 0, sentAt: ticket.sentAt };
    this.#scouting = false;
    this.#probes = [];
  }

  /**
   * A refused request: its window was still open a whole second short of the Retry-After counted from when
   * it left (the server counts whole seconds), and it ends by `retryAt` (a whole-second store's, the
   * sandbox's) or within the pacing's margin after it (a store that expires to the millisecond). A 429 the
   * pacing did not expect (an upper bound was known) means the server's window grew.
   */
  #learnFrom429(ticket: RateTicket, retryAt: number, receivedAt: number, window: WindowSeen): void {
    const open = Math.max(ticket.sentAt, ticket.sentAt + (retryAt - receivedAt) - WHOLE_SECOND_MS);
    this.#learn(this.#bounds.atLeast(open - window.start));
    if (window.openedAfter !== undefined) this.#learn(this.#bounds.atMost(retryAt - window.openedAfter, this.#bounds.hi !== undefined));
  }

  #learn(windowMs: number | undefined): void {
    if (windowMs === undefined || this.#given !== undefined) return;
    this.#probes = [];
    this.#options.onLearn?.(this.#limit, windowMs);
  }

  #notify(): void {
    const previous = this.#changed;
    this.#changed = Promise.withResolvers<void>();
    previous.resolve();
  }
}
