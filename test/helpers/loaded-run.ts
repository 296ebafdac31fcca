/**
 * Requests through the real scheduler (its concurrency, its rate gate) against a simulated fixed window, on
 * a fake clock, as a loaded machine runs them (STYLE 17: time is an input): a request reaches the server
 * some time after the gate let it go, its answer is read some time after the server counted it, and every
 * timer the gate sets wakes late. Each delay is drawn from a seeded sequence, so a failing case replays.
 */
import { rateInfoOf } from "../../src/api/rate-info.ts";
import { createScheduler, type LearnedRate } from "../../src/api/scheduler.ts";
import { type FakeClock, fakeClock } from "./fake-clock.ts";
import type { FixedWindowServer } from "./fixed-window-server.ts";

const ORIGIN = "https://api.test";

/** Upper bounds (ms) of the delays a loaded machine adds; each is drawn uniformly from 0 to it. */
export interface Load {
  /** From the gate's go to the server's count (a busy loop sends late). */
  send: number;
  /** From the server's count to the answer being read (slow answers, a busy loop reads late). */
  answer: number;
  /** How late a timer of the gate fires. */
  timers: number;
  /** One request in this many fails after the server counted it (a reset after the hit): the run retries it. */
  failEvery?: number;
}

export const IDLE: Load = { send: 0, answer: 0, timers: 0 };

export interface LoadedRun {
  concurrency: number;
  requests: number;
  load: Load;
  seed?: number;
  /** `--rate-window`: said, not learned. */
  windowMs?: number;
  /** A clock shared with an earlier run (the server's windows go on), or a fresh one. */
  clock?: FakeClock;
  /** Called after each answer was read, with the time: to change the server mid-run. */
  onAnswer?: (now: number, answered: number) => void;
}

export interface LoadedResult {
  throttled: number;
  learned: LearnedRate[];
  elapsed: number;
}

export async function loadedRun(server: FixedWindowServer, run: LoadedRun): Promise<LoadedResult> {
  const clock = run.clock ?? fakeClock();
  const random = seeded(run.seed ?? 1);
  const draw = (max: number) => Math.floor(random() * (max + 1));
  const learned: LearnedRate[] = [];
  const scheduler = createScheduler({
    concurrency: run.concurrency,
    rateWindowMs: run.windowMs,
    clock: lateTimers(clock, () => draw(run.load.timers)),
    onRateLearned: (l) => learned.push(l),
  });
  const started = clock.now();
  let throttled = 0;
  let answered = 0;
  let sent = 0;
  const attempt = async () => {
    const failing = run.load.failEvery !== undefined && ++sent % run.load.failEvery === 0;
    await clock.sleep(draw(run.load.send));
    const answer = server.hit(clock.now());
    await clock.sleep(draw(run.load.answer));
    if (failing) throw new Error("connection reset after the server counted the request");
    run.onAnswer?.(clock.now(), ++answered);
    return { status: answer.status, rate: rateInfoOf(answer.status, answer.headers, clock.now()) };
  };
  const one = async () => {
    for (;;) {
      const result = await scheduler.run(ORIGIN, attempt).catch(() => undefined);
      if (result?.status === 200) return;
      if (result?.status === 429) throttled++;
    }
  };
  await Promise.all(Array.from({ length: run.requests }, one));
  return { throttled, learned, elapsed: clock.now() - started };
}

/** The clock the gate sleeps on: the same time, but every timer fires up to `late()` ms after it was due. */
function lateTimers(clock: FakeClock, late: () => number): FakeClock {
  return { slept: clock.slept, now: () => clock.now(), sleep: (ms, stop) => clock.sleep(ms === 0 ? 0 : ms + late(), stop) };
}

/** A small deterministic generator (mulberry32): the same seed, the same delays. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
