import { printable } from "./_values.ts";
import type { Surface } from "./refusal-words.ts";

/**
 * A server's rate limit once its window is learned (DESIGN §6), said once per server:
 * `learned the rate limit of https://host: 60 requests per 60s`.
 */
export function learnedRateLine(learned: { origin: string; limit: number; windowMs: number }): string {
  return printable(`learned the rate limit of ${learned.origin}: ${learned.limit} requests per ${learned.windowMs / 1000}s`);
}

/**
 * A pause a server asked for, as the CLI and the Action log it: `waiting 12s: https://host asked for a pause
 * (Retry-After: 12); --max-wait bounds it` (the Action's max-wait input). A run's time is its plan's estimate
 * plus these (DESIGN §12).
 */
export function waitLine(wait: { ms: number; origin: string; reason: string }, surface: Surface = "cli"): string {
  const bound = surface === "cli" ? "--max-wait bounds it" : "the max-wait input bounds it";
  return printable(`waiting ${Math.ceil(wait.ms / 1000)}s: ${wait.origin} asked for a pause (${wait.reason}); ${bound}`);
}
