/**
 * Time as an input (STYLE 17): the rate gate, the retry backoff and the rate headers read the time and wait
 * through a clock, so a test can drive pacing without the wall clock.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Resolves after `ms`, or at once when `stop` aborts. Never rejects. */
  sleep(ms: number, stop?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep(ms, stop) {
    return new Promise((resolve) => {
      if (stop?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        stop?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      stop?.addEventListener("abort", done, { once: true });
    });
  },
};

/**
 * Waits `ms` (Infinity: until `changed`), or less when `changed` resolves or `stop` aborts. Nothing it set up
 * outlives it: neither the clock's timer nor a listener on `stop`.
 */
export async function sleepOrChange(clock: Clock, ms: number, changed: Promise<void>, stop?: AbortSignal): Promise<void> {
  const woken = new AbortController();
  const signal = stop ? AbortSignal.any([woken.signal, stop]) : woken.signal;
  const elapsed = ms === Infinity ? untilAborted(signal) : clock.sleep(ms, signal);
  await Promise.race([changed, elapsed]);
  woken.abort();
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
