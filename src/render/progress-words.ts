/**
 * The words of a read as it goes (DESIGN §5: nothing is silent): the live line of a terminal, and the lines a
 * log (CI, cron) gets for each wait of a second or more and each re-read.
 */
import type { ReadProgress } from "../run/types.ts";
import { printable } from "./_values.ts";

type RateWait = Extract<ReadProgress, { kind: "rate-wait" }>;

/** `60/60s at https://host`: the limit the server states, the window it counts in, and the server. */
function limitOf(wait: RateWait): string {
  return `${wait.limit}/${Math.round(wait.windowMs / 1000)}s at ${printable(wait.origin)}`;
}

/** A log line per wait for the rate budget, when it starts: `waiting 58s for the rate limit (60/60s at https://…)`. */
export function rateWaitLine(wait: RateWait): string {
  return `waiting ${seconds(wait.ms)} for the rate limit (${limitOf(wait)})`;
}

/** Whole seconds, never 0s for a wait still to come (the gate adds a few ms of margin to a window). */
function seconds(ms: number): string {
  return `${Math.max(1, Math.round(ms / 1000))}s`;
}

/** A re-read, and why: someone changed the account while it was read. */
export function rereadLine(event: Extract<ReadProgress, { kind: "reread" }>): string {
  return `the ${event.noun} changed while they were read (${printable(event.problem)}): reading them again (${event.attempt} of ${event.of})`;
}

/** The terminal's live line: `reading websites: 60 of 1000 pages · waiting 12s for the rate limit (60/60s at …)`, counting down. */
export function readStatus(page: Extract<ReadProgress, { kind: "page" }> | undefined, wait: RateWait | undefined, leftMs: number): string {
  const parts: string[] = [];
  if (page) parts.push(`reading ${page.noun}: ${page.read}${page.of === undefined ? "" : ` of ${page.of}`} pages`);
  if (wait) parts.push(`waiting ${seconds(leftMs)} for the rate limit (${limitOf(wait)})`);
  return parts.join(" · ");
}
