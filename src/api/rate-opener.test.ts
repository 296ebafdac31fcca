import { describe, expect, it } from "vitest";
import { openerBound, type RateTicket, type WindowSeen } from "./rate-opener.ts";

const ticket = (over: Partial<RateTicket> = {}): RateTicket => ({
  seq: 10,
  sentAt: 61_000,
  windowId: 1,
  lowest: { remaining: 0, sentAt: 20_000 },
  pending: { count: 0, since: Infinity },
  ...over,
});
const none = { count: 0, since: Infinity };
const window = (answers: WindowSeen["answers"]): WindowSeen => ({ id: 1, start: 1_000, openedAfter: 500, answers, countable: 60 });

describe("when a window opened, at the earliest (DESIGN §6)", () => {
  it("is the send time of the request whose answer shows it opened the window", () => {
    expect(openerBound(ticket(), 59, 60, { previous: window([]), failed: none, sent: 10 })).toBe(61_000);
  });

  it("is an earlier send time when a request still unanswered when it left may have been counted first", () => {
    const t = ticket({ pending: { count: 1, since: 59_500 } });
    expect(openerBound(t, 58, 60, { previous: window([]), failed: none, sent: 10 })).toBe(59_500);
  });

  it("is an earlier send time when a request that failed may have been counted first", () => {
    expect(openerBound(ticket(), 58, 60, { previous: window([]), failed: { count: 1, since: 59_000 }, sent: 10 })).toBe(59_000);
  });

  it("counts an answer read before the request left, with a higher count, as a possible opener", () => {
    const previous = window([{ sentAt: 60_100, receivedAt: 60_900, remaining: 59 }]);
    expect(openerBound(ticket(), 58, 60, { previous, failed: none, sent: 10 })).toBe(60_100);
  });

  it("does not count answers read before the request with the lowest count left: their window is older", () => {
    const previous = window([{ sentAt: 1_000, receivedAt: 1_200, remaining: 59 }]);
    // Two hits counted, and only this request to explain them: the other was someone else's.
    expect(openerBound(ticket(), 58, 60, { previous, failed: none, sent: 10 })).toBeUndefined();
  });

  it("counts requests sent after it, which may reach the server first", () => {
    expect(openerBound(ticket(), 57, 60, { previous: window([]), failed: none, sent: 12 })).toBe(61_000);
  });

  it("gives no bound when the count holds more hits than this run can explain (another run spent them)", () => {
    expect(
      openerBound(ticket({ pending: { count: 3, since: 60_000 } }), 19, 60, { previous: undefined, failed: none, sent: 10 }),
    ).toBeUndefined();
  });
});
