/**
 * Who may have opened a rate-limit window (DESIGN §6): the evidence `rate-gate.ts` keeps per request and per
 * window, and the bound it gives on when the window opened. A window's length is bounded from above only
 * from a time no later than its true start: an opener's send time, taken before it left.
 */

/** The state a request was sent under, used to tell a refilled counter from answers arriving out of order. */
export interface RateTicket {
  /** Its place in the order requests were let go. */
  readonly seq: number;
  readonly sentAt: number;
  readonly windowId: number;
  /**
   * The lowest count seen in its window when it was sent, and when the request that showed it was sent: an
   * answer at or above that count is from a later window, which opened after that request was sent.
   */
  readonly lowest: { remaining: number; sentAt: number } | undefined;
  /** Requests still unanswered when it was sent: any of them may be counted before it in a new window. */
  readonly pending: { count: number; since: number };
}

/** A window the gate saw open, and what it saw during it. */
export interface WindowSeen {
  id: number;
  /** The receipt of the answer that showed it: no earlier than its true start. */
  start: number;
  /** No later than its true start; undefined when more hits were counted in it than this run can explain. */
  openedAfter: number | undefined;
  /** Every count read while it was the current window (late answers from earlier ones too). */
  answers: { sentAt: number; receivedAt: number; remaining: number }[];
  /** Requests that may have been counted in it: those in flight when it showed, and those sent since. */
  countable: number;
}

/**
 * When the window shown by `ticket`'s answer (`remaining` left of `limit`) opened, at the earliest; undefined
 * when its count holds hits from elsewhere. Counted in it before or with this answer are `limit - remaining`
 * hits, each one of: this request, one unanswered when it left, one sent after it, one that failed, or one
 * whose answer was read before it left with a higher count (the count falls within a window), and after the
 * request that showed the lowest count left (this window is later than that one's, so opened after it was sent).
 */
export function openerBound(
  ticket: RateTicket,
  remaining: number,
  limit: number,
  seen: { previous: WindowSeen | undefined; failed: { count: number; since: number }; sent: number },
): number | undefined {
  let count = 1 + ticket.pending.count + (seen.sent - ticket.seq) + seen.failed.count;
  let since = Math.min(ticket.sentAt, ticket.pending.since, seen.failed.since);
  for (const answer of seen.previous?.answers ?? []) {
    if (
      answer.receivedAt > ticket.sentAt ||
      answer.receivedAt <= (ticket.lowest?.sentAt ?? Number.NEGATIVE_INFINITY) ||
      answer.remaining <= remaining
    )
      continue;
    count++;
    since = Math.min(since, answer.sentAt);
  }
  return limit - remaining <= count ? since : undefined;
}
