/**
 * The rate gate's evidence, step by step on a fake clock (DESIGN §6): which answers bound the window, which
 * pause the run, and what goes past a window's expected end. Each sequence is what a loaded machine makes
 * of a fixed window (API-NOTES §1): answers out of order, late, or from a window already over.
 */
import { describe, expect, it } from "vitest";
import { RateGate } from "../../src/api/rate-gate.ts";
import { type FakeClock, fakeClock } from "../helpers/fake-clock.ts";

/** Whether `acquire` is still held back after the loop ran everything else, with the clock standing still. */
async function isHeld(gate: RateGate): Promise<boolean> {
  const acquired = gate.acquire().then(() => false);
  const turns = new Promise<boolean>((resolve) => setImmediate(() => setImmediate(() => resolve(true))));
  return Promise.race([acquired, turns]);
}

/** Moves the fake clock to `ms` after its start, waking the gate's timers on the way. */
async function at(clock: FakeClock, start: number, ms: number): Promise<void> {
  await clock.sleep(start + ms - clock.now());
}

describe("a 429 from a window already over, answered late", () => {
  it("neither pauses the run nor zeroes the budget of the window that followed", async () => {
    const clock = fakeClock();
    const start = clock.now();
    const waits: number[] = [];
    const gate = new RateGate({ clock, onWait: (ms) => waits.push(ms) });
    gate.settle(await gate.acquire(), { limit: 4, remaining: 3 }, start + 100);
    // Two requests leave in window 1; the first reaches the server just before it ends, the other just after.
    const refused = await gate.acquire();
    const opener = await gate.acquire();
    await at(clock, start, 61_000);
    // The request that met window 2 answers first; the refusal from window 1 comes in 9 s later.
    gate.settle(opener, { limit: 4, remaining: 3 }, clock.now());
    await at(clock, start, 70_000);
    gate.settle(
      refused,
      { limit: 4, remaining: 0, throttled: true, retryAt: clock.now() + 1_000, waitHeader: "Retry-After: 1" },
      clock.now(),
    );
    expect(waits).toEqual([]);
    expect(await isHeld(gate)).toBe(false);
    expect(gate.state()?.budget.remaining).toBe(2);
  });
});

describe("past a window's expected end", () => {
  it("lets one request go and holds the rest until its answer shows the window refilled", async () => {
    const clock = fakeClock();
    const start = clock.now();
    const gate = new RateGate({ clock });
    gate.settle(await gate.acquire(), { limit: 4, remaining: 3 }, start);
    for (const remaining of [2, 1, 0]) gate.settle(await gate.acquire(), { limit: 4, remaining }, start);
    const held = [gate.acquire(), gate.acquire(), gate.acquire(), gate.acquire()];
    let gone = 0;
    for (const ticket of held) void ticket.then(() => gone++);
    await at(clock, start, 65_000);
    expect(gone).toBe(1);
    const scout = await Promise.race(held);
    gate.settle(scout, { limit: 4, remaining: 3 }, clock.now());
    await Promise.all(held);
    expect(gone).toBe(4);
  });
});

describe("a run that starts inside a window another run spent (DESIGN §8)", () => {
  it("takes no upper bound from that window's end: its own send time is not when the window opened", async () => {
    const clock = fakeClock();
    const start = clock.now();
    const gate = new RateGate({ clock });
    // 40 of 60 were spent before this run's first request: the count shows 41 hits.
    gate.settle(await gate.acquire(), { limit: 60, remaining: 19 }, start + 100);
    const tickets = await Promise.all(Array.from({ length: 13 }, () => gate.acquire()));
    for (const [i, t] of tickets.entries()) gate.settle(t, { limit: 60, remaining: 18 - i }, start + 200);
    // A probe 30 s in finds the window refilled: the other run opened it about 30 s before ours.
    const probe = await gate.acquire();
    gate.settle(probe, { limit: 60, remaining: 59 }, clock.now() + 50);
    expect(gate.state()?.windowMs).toBe(60_000);
  });
});
