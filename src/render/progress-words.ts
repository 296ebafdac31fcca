/**
 * The words of a read as it goes (DESIGN §5: nothing is silent): the live line of a terminal, and the lines a
 * log (CI, cron) gets for each wait of a second or more and each re-read.
 */
import type { ReadProgress } from "../run/types.ts";
import { printable } from "./_values.ts";

type RateWait = Extract<ReadProgress, { kind: "rate-wait" }>;

/** `60/60s at https://host`: the limit the server states, the window it counts in, and the server. */
function limitOf(wait: RateWait): string {
  const limit = wait.limit === undefined ? "its limit" : `${wait.limit}/${Math.round(wait.windowMs / 1000)}s`;
  return `${limit} at ${printable(wait.origin)}`;
}

/** A log line per wait for the rate budget, when it starts: `waiting up to 60s for the rate limit (60/60s at https://…)`. */
export function rateWaitLine(wait: RateWait): string {
  return `waiting up to ${Math.ceil(wait.windowMs / 1000)}s for the rate limit (${limitOf(wait)})`;
}

/** A re-read, and why: someone changed the account while it was read. */
export function rereadLine(event: Extract<ReadProgress, { kind: "reread" }>): string {
  return `the ${event.noun} changed while they were read (${printable(event.problem)}): reading them again (${event.attempt} of ${event.of})`;
}

/** The terminal's live line: `reading websites: 60 of 1000 pages · waiting for the rate limit (60/60s at …) 12s`. */
export function readStatus(
  page: Extract<ReadProgress, { kind: "page" }> | undefined,
  wait: RateWait | undefined,
  waitedMs: number,
): string {
  const parts: string[] = [];
  if (page) parts.push(`reading ${page.noun}: ${page.read}${page.of === undefined ? "" : ` of ${page.of}`} pages`);
  if (wait) parts.push(`waiting for the rate limit (${limitOf(wait)}) ${Math.floor(waitedMs / 1000)}s`);
  return parts.join(" · ");
}
