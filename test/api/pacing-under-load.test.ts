/**
 * At most one 429 per server per run, on a loaded machine too (DESIGN §6, §8): the real scheduler against a
 * simulated fixed window anchored at its first hit (Laravel's throttle, API-NOTES §1), on a fake clock that
 * delays requests, answers and timers as a busy machine does. A window learned shorter than the server's
 * sends the whole concurrency into a closed window: each case checks the 429s and the window learned.
 */
import { describe, expect, it } from "vitest";
import { fakeClock } from "../helpers/fake-clock.ts";
import { FixedWindowServer, type WindowClock } from "../helpers/fixed-window-server.ts";
import { IDLE, type Load, loadedRun } from "../helpers/loaded-run.ts";

/** A busy machine: requests leave up to 300 ms late, answers are read up to 1.5 s late, timers fire up to 1 s late. */
const BUSY: Load = { send: 300, answer: 1500, timers: 1000 };
/** Answers slower than the gaps the gate leaves: a window's end passes while several are on their way. */
const SLOW: Load = { send: 1000, answer: 8000, timers: 2000 };

const windowsOf = (learned: { windowMs: number }[]) => learned.map((l) => l.windowMs);

describe("a full read's worth of requests at 60/min on a loaded machine", () => {
  for (const concurrency of [4, 8]) {
    for (const clock of ["exact", "whole-second"] as WindowClock[]) {
      it(`concurrency ${concurrency}, ${clock} windows: no 429, and the minute learned, never less`, async () => {
        for (const seed of [1, 2, 3]) {
          const server = new FixedWindowServer({ limit: 60, windowMs: 60_000, clock });
          const run = await loadedRun(server, { concurrency, requests: 400, load: BUSY, seed });
          expect(run.throttled, `seed ${seed}`).toBe(0);
          expect(windowsOf(run.learned), `seed ${seed}`).toEqual([60_000]);
          // DESIGN §8: within 1.1× of requests ÷ rate, waits and late timers included.
          expect(run.elapsed, `seed ${seed}`).toBeLessThanOrEqual(1.1 * (400 / 60) * 60_000);
        }
      });
    }
  }

  it("answers slower than the gate's gaps, at concurrency 8: no 429, never a window shorter than the server's", async () => {
    for (const seed of [4, 5, 6]) {
      const server = new FixedWindowServer({ limit: 60, windowMs: 60_000, clock: "whole-second" });
      const run = await loadedRun(server, { concurrency: 8, requests: 400, load: SLOW, seed });
      expect(run.throttled, `seed ${seed}`).toBe(0);
      for (const windowMs of windowsOf(run.learned)) expect(windowMs, `seed ${seed}`).toBeGreaterThanOrEqual(60_000);
    }
  });

  it("requests that fail after the server counted them (some at a window's start) teach no shorter window", async () => {
    for (const seed of [7, 8, 9]) {
      const server = new FixedWindowServer({ limit: 60, windowMs: 60_000 });
      const run = await loadedRun(server, { concurrency: 4, requests: 400, load: { ...BUSY, failEvery: 7 }, seed });
      expect(run.throttled, `seed ${seed}`).toBeLessThanOrEqual(1);
      for (const windowMs of windowsOf(run.learned)) expect(windowMs, `seed ${seed}`).toBeGreaterThanOrEqual(60_000);
    }
  });
});

describe("windows longer than the minute assumed", () => {
  for (const [concurrency, clock] of [
    [4, "whole-second"],
    [8, "exact"],
  ] as const) {
    it(`at concurrency ${concurrency}, ${clock} windows of 2 minutes cost one 429, then none`, async () => {
      for (const seed of [1, 2]) {
        // An exact window ends up to a second after the Retry-After Laravel counts in whole seconds.
        const server = new FixedWindowServer({ limit: 30, windowMs: 120_000, clock });
        const run = await loadedRun(server, { concurrency, requests: 200, load: BUSY, seed });
        expect(run.throttled, `seed ${seed}`).toBe(1);
        expect(windowsOf(run.learned), `seed ${seed}`).toEqual([120_000]);
      }
    });
  }

  it("a server whose window grows mid-run is followed after one 429", async () => {
    const server = new FixedWindowServer({ limit: 60, windowMs: 60_000 });
    let grewAt: number | undefined;
    const run = await loadedRun(server, {
      concurrency: 4,
      requests: 600,
      load: BUSY,
      onAnswer: (now, answered) => {
        if (answered === 250 && grewAt === undefined) {
          grewAt = now;
          server.windowMs = 180_000;
        }
      },
    });
    expect(run.throttled).toBe(1);
    expect(windowsOf(run.learned)).toEqual([60_000, 180_000]);
  });
});

describe("a run that starts inside a window another run spent (DESIGN §8)", () => {
  for (const [spent, after, refused] of [
    [40, 30_000, 0],
    [59, 59_000, 0],
    // The whole budget spent: the run's first request is refused, and that 429 is the only one.
    [60, 5_000, 1],
  ] as const) {
    it(`${spent} of 60 spent, starting ${after / 1000} s into that window: ${refused} 429, no shorter window`, async () => {
      for (const concurrency of [4, 8]) {
        const clock = fakeClock();
        const server = new FixedWindowServer({ limit: 60, windowMs: 60_000 });
        server.spend(clock.now(), spent);
        await clock.sleep(after);
        const run = await loadedRun(server, { concurrency, requests: 200, load: BUSY, clock });
        expect(run.throttled, `concurrency ${concurrency}`).toBe(refused);
        for (const windowMs of windowsOf(run.learned)) expect(windowMs).toBeGreaterThanOrEqual(60_000);
      }
    });
  }

  it("two full reads back to back: the second starts in the window the first left, and sees no 429", async () => {
    const clock = fakeClock();
    const server = new FixedWindowServer({ limit: 60, windowMs: 60_000 });
    const first = await loadedRun(server, { concurrency: 4, requests: 100, load: BUSY, clock });
    const second = await loadedRun(server, { concurrency: 4, requests: 100, load: BUSY, clock, seed: 2 });
    expect([first.throttled, second.throttled]).toEqual([0, 0]);
  });
});

describe("an idle machine, for contrast", () => {
  it("paces 60/min at concurrency 8 with no 429 and learns the minute", async () => {
    const server = new FixedWindowServer({ limit: 60, windowMs: 60_000 });
    const run = await loadedRun(server, { concurrency: 8, requests: 400, load: IDLE });
    expect(run.throttled).toBe(0);
    expect(windowsOf(run.learned)).toEqual([60_000]);
  });
});
