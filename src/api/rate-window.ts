/**
 * What a server's answers proved about the length W of its rate-limit window (DESIGN §6: the window is
 * learned), apart from the pacing that uses it (`rate-gate.ts`).
 *
 * Laravel's throttle counts whole seconds of whole minutes (`throttle:60,1`, API-NOTES §1), and how a window
 * really ends depends on its cache: a store that keeps a whole-second expiry ends a window opened at 12.7 s
 * at 72 s, 59.3 s later. So one window's length is only known to lie in (D - 1 s, D] for the server's D:
 * a bound measured on one window must not be taken for the next without that second of slack.
 *
 * - `lo` (W > lo): an answer counted in a window, for a request sent `lo` after the window's start estimate.
 * - `hi` (W ≤ hi for the window it was measured on): the window had ended when an answer showed the counter
 *   refilled (or by a 429's retry time), and it had not opened before a known send time.
 * The window is learned when one length fits both (`fitting`). Pacing adds a margin of up to 1 s, so a window
 * that lasts a second longer than the one measured is still waited out.
 */

/** The real API's window (`throttle:60,1`, API-NOTES §1), assumed until one is learned. */
export const GUESSED_WINDOW_MS = 60_000;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/**
 * How far above a whole minute an upper bound may lie and still name it: a busy machine reads the answer that
 * shows a window's end a second or two late. A server whose windows are not whole minutes and last up to this
 * much longer is then met by one scout early: its 429 widens the bound, and the window is learned again.
 */
const MINUTE_SLACK_MS = 2 * SECOND;

/**
 * Slack for the server's whole-second clock and our own delays: 2% of the window, at most one second, the
 * most a whole-second store can add to a window measured shorter.
 */
export function marginOf(windowMs: number): number {
  return Math.min(SECOND, Math.ceil(windowMs * 0.02));
}

/**
 * What a run knows of a server's rate limit now (DESIGN §5, the plan's estimate): `limit` requests per
 * `windowMs` (said, learned, or the real API's minute assumed), and the budget left in the current window with
 * the time until that window is expected to end (a full budget at once when none is open).
 */
export interface RateState {
  limit: number;
  windowMs: number;
  budget: { remaining: number; refillsInMs: number };
}

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

export class WindowBounds {
  #lo = 0;
  #hi: number | undefined;
  #learned: number | undefined;
  #guess = GUESSED_WINDOW_MS;

  get lo(): number {
    return this.#lo;
  }

  get hi(): number | undefined {
    return this.#hi;
  }

  /** The server's window, once one length fits every bound (never shorter than a window seen). */
  get learned(): number | undefined {
    return this.#learned;
  }

  /** The window paced by: learned, else the proven upper bound, else the guess. */
  get pacing(): number {
    return this.#learned ?? this.#hi ?? this.#guess;
  }

  /** A window lasted longer than `ms`. Returns the window when this made it learned. */
  atLeast(ms: number): number | undefined {
    this.#lo = Math.max(this.#lo, ms);
    // Past the guess with no upper bound: Laravel counts whole minutes, so guess the next one (API-NOTES §1).
    if (this.#hi === undefined && this.#lo >= this.#guess) this.#guess = (Math.floor(this.#lo / MINUTE) + 1) * MINUTE;
    return this.#settle();
  }

  /**
   * A window lasted at most `ms`. `grew`: a 429 that the pacing did not expect, so the server's window is now
   * longer than the one learned; the bound then widens and the window is learned again.
   */
  atMost(ms: number, grew = false): number | undefined {
    if (grew && this.#hi !== undefined && ms > this.#hi) {
      this.#hi = ms;
      this.#learned = undefined;
    } else {
      this.#hi = Math.min(this.#hi ?? ms, ms);
    }
    return this.#settle();
  }

  #settle(): number | undefined {
    const hi = this.#hi;
    if (hi === undefined) return undefined;
    // More than a whole second apart the other way: a bound came from someone else's hits. Trust `hi`,
    // the one the pacing is safe by.
    if (this.#lo >= hi + SECOND) this.#lo = 0;
    if (this.#learned !== undefined) return undefined;
    this.#learned = fitting(this.#lo, hi);
    return this.#learned;
  }
}

/**
 * The one window length the bounds allow, if there is one: the whole minute above `lo` when both bounds lie
 * within a few seconds of it (Laravel's windows, API-NOTES §1), else the whole second above `lo` when `hi` is
 * within a margin of it (any other server, the sandbox's). An upper bound alone names nothing: a refill first
 * seen at the minute assumed says the window is at most that long, not that long.
 */
function fitting(lo: number, hi: number): number | undefined {
  const minute = (Math.floor(lo / MINUTE) + 1) * MINUTE;
  if (lo > minute - MINUTE_SLACK_MS - SECOND && hi >= minute - SECOND && hi <= minute + MINUTE_SLACK_MS) return minute;
  const second = (Math.floor(lo / SECOND) + 1) * SECOND;
  return hi <= second + marginOf(second) ? second : undefined;
}

/**
 * Probes kept per window while learning (at most one unit in five), and where they go in a window while no
 * upper bound is known (fractions of the guess: early ones catch a shorter window, the last two pin the guess).
 */
const MAX_PROBES = 6;
const EARLY_PROBES = [1 / 16, Math.SQRT2 / 16, 1 / 8, 1 / 4];
const GUESS_PROBES = [0.97, 1];
/** In a window someone else opened, its end is anywhere in it: soon after the start first, then every quarter. */
const FOREIGN_PROBES = [1 / 16, 1 / 8, 1 / 4, 1 / 2, 3 / 4, 1];

/**
 * When to send the last units of a window that starts at `start` while its length is being learned: spread
 * between the bounds once an upper one is known; over the guess when someone else opened the window (`own`
 * false); else early (a shorter window shows within a few windows) and just before and at the guess (the real
 * API's window is learned within one). None when the limit is too small.
 */
export function probeTimes(start: number, limit: number, bounds: WindowBounds, own: boolean): number[] {
  const count = Math.min(MAX_PROBES, Math.floor(limit / 5));
  const { lo, hi, pacing } = bounds;
  const spread = (from: number, to: number) => Array.from({ length: count }, (_, i) => from + ((to - from) * (i + 1)) / (count + 1));
  const fractions = count > GUESS_PROBES.length ? [...EARLY_PROBES.slice(0, count - GUESS_PROBES.length), ...GUESS_PROBES] : EARLY_PROBES;
  const guessed = own ? fractions.map((f) => f * pacing).filter((offset) => offset > lo) : FOREIGN_PROBES.map((f) => f * pacing);
  const offsets = hi === undefined ? guessed : spread(lo, hi);
  return offsets.slice(0, count).map((offset) => start + Math.round(offset));
}
