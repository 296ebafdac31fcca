/**
 * A clock that only moves when someone sleeps (STYLE 17): once the event loop has run everything else, the
 * earliest sleeper wakes and the time jumps to its deadline. Shared by a client and a sandbox, it makes pacing
 * exact: no assertion depends on how fast the machine is.
 */
import type { Clock } from "../../src/index.ts";

export interface FakeClock extends Clock {
  /** The sleeps that were asked for, in ms, in order (cancelled ones included). */
  readonly slept: number[];
}

export function fakeClock(start = Date.UTC(2026, 0, 1)): FakeClock {
  let now = start;
  let sequence = 0;
  const sleepers = new Map<number, { at: number; wake: () => void }>();
  const slept: number[] = [];
  let scheduled = false;
  const advance = () => {
    scheduled = false;
    let earliest: number | undefined;
    for (const [id, sleeper] of sleepers) {
      if (earliest === undefined || sleeper.at < sleepers.get(earliest)!.at) earliest = id;
    }
    if (earliest === undefined) return;
    const sleeper = sleepers.get(earliest)!;
    sleepers.delete(earliest);
    now = Math.max(now, sleeper.at);
    sleeper.wake();
    schedule();
  };
  // Two turns of the loop: the woken code's own promises and I/O callbacks run before time moves again.
  const schedule = () => {
    if (scheduled || sleepers.size === 0) return;
    scheduled = true;
    setImmediate(() => setImmediate(advance));
  };
  return {
    slept,
    now: () => now,
    sleep(ms, stop) {
      slept.push(ms);
      return new Promise((resolve) => {
        if (stop?.aborted) return resolve();
        const id = sequence++;
        sleepers.set(id, { at: now + ms, wake: resolve });
        const cancel = () => {
          sleepers.delete(id);
          resolve();
        };
        stop?.addEventListener("abort", cancel, { once: true });
        schedule();
      });
    },
  };
}
