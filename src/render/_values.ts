/** How plan values read in text and Markdown: in the config's own vocabulary (DESIGN §2). */
import { plural } from "../model/plural.ts";

import { printable } from "../model/printable.ts";

export { printable };

import { type FieldName, PRIVACY_NAMES, WEBSITE_FIELDS } from "../model/website-fields.ts";
import type { FieldChange, FieldValue, Plan, PlanEstimate, PlanSummary, Selection, WriteOnlyReason } from "../plan/types.ts";

/** A value as a user wrote it in the config: `password` for privacy 2, `true` for email 1, `[a, b]` for lists. */
export function formatValue(field: FieldName, value: FieldValue): string {
  if (value === null) return "(unknown)";
  if (Array.isArray(value)) return `[${value.join(", ")}]`;
  if (typeof value === "number") {
    const { kind } = WEBSITE_FIELDS[field];
    if (kind === "privacy") return PRIVACY_NAMES[value] ?? String(value);
    // Flags are written true/false in the config; the API has no range check on email (API-NOTES §2.4).
    if (kind === "flag" && (value === 0 || value === 1)) return String(value === 1);
  }
  return String(value);
}

/** Entries added to and removed from a list compared as a set (`exclude_ips`: DESIGN §4). */
export function setDiff(change: FieldChange): { added: string[]; removed: string[] } | undefined {
  const { before, after } = change;
  if (!Array.isArray(before) || !Array.isArray(after)) return undefined;
  const old = new Set(before);
  const next = new Set(after);
  return { added: [...next].filter((e) => !old.has(e)), removed: [...old].filter((e) => !next.has(e)) };
}

const WRITE_ONLY_NOTES = {
  "privacy-change": "write-only, not verified",
  "no-password": "write-only, none stored",
  "sync-write-only": "write-only, not verified",
} as const satisfies Record<WriteOnlyReason, string>;

/**
 * Why a write-only value is sent, for updates (`undefined` on creates, where nothing needs explaining): the
 * change since a base (`sent: rotated since HEAD~1`), a re-send of what applying it sent already, or
 * another reason.
 */
export function writeOnlyNote(change: FieldChange): string | undefined {
  if (!change.writeOnly) return undefined;
  if (change.changedSince !== undefined) {
    const { edit, ref, resend } = change.changedSince;
    const verb = edit === "rotated" ? "rotated" : "changed";
    if (resend === undefined) return `sent: ${verb} since ${printable(ref)}`;
    const commit = printable(resend.commit.slice(0, 12));
    return `re-sent: ${verb} since ${printable(ref)} and sent already (the website was written since ${commit}); --changed-since ${commit} stops re-sending`;
  }
  if (change.sentBecause === undefined) return undefined;
  return WRITE_ONLY_NOTES[change.sentBecause];
}

export const REASONS = { tombstone: "state: absent", prune: "not listed, prune on" } as const;

/** What a delete destroys, said loudly (DESIGN §3; the API's delete is hard: API-NOTES §2.6, §5). */
export const DESTROYS = {
  website: "destroys its collected statistics",
  project: "deletes its reports",
} as const;

/**
 * `≈ 6 requests, within the rate limit (60 requests/60 s)`, or for a run the limit slows down
 * `≈ 150 requests, ≥ 2 min of rate-limit waits (60 requests/60 s)`. Only the waits are a true lower bound:
 * the first window's budget is available at once, so `requests / rate` overstated short runs (issue 11).
 */
export function formatEstimate(e: PlanEstimate): string {
  if (e.reads !== undefined) return readsAndWrites(e, e.reads);
  const rate = `${e.rateLimit} requests/${e.rateWindowSeconds} s`;
  const waits = (Math.ceil(e.requests / Math.max(e.rateLimit, 1)) - 1) * e.rateWindowSeconds;
  const time = waits > 0 ? `≥ ${formatSeconds(waits)} of rate-limit waits` : "within the rate limit";
  return `≈ ${plural(e.requests, "request")}, ${time} (${rate})`;
}

/**
 * A run's whole cost (DESIGN §5): `≈ 103 requests: 100 reads, 3 writes; about 1 min at 60/min`. The time is
 * the rate-limit waits those requests cost at the server's limit (the first window's budget is there at once).
 */
function readsAndWrites(e: PlanEstimate, reads: number): string {
  const total = reads + e.requests;
  const rate = e.rateWindowSeconds === 60 ? `${e.rateLimit}/min` : `${e.rateLimit}/${e.rateWindowSeconds}s`;
  const waits = (Math.ceil(total / Math.max(e.rateLimit, 1)) - 1) * e.rateWindowSeconds;
  const time = waits > 0 ? `about ${formatSeconds(waits)} at ${rate}` : `within the rate limit (${rate})`;
  return `≈ ${plural(total, "request")}: ${plural(reads, "read")}, ${plural(e.requests, "write")}; ${time}`;
}

/** Whether a plan's estimate has anything to say: writes to send, or reads it took. */
export function hasEstimate(e: PlanEstimate): boolean {
  return e.requests > 0 || (e.reads ?? 0) > 0;
}

function formatSeconds(seconds: number): string {
  const rounded = Math.round(seconds * 10) / 10;
  if (rounded < 60) return `${rounded} s`;
  const minutes = Math.floor(rounded / 60);
  const rest = Math.round(rounded - minutes * 60);
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/** The summary in words: `1 to create, 0 to update, 2 to delete, 5 unchanged, 3 unmanaged`. */
export function summaryWords(s: PlanSummary): string {
  const words = [`${s.create} to create`, `${s.update} to update`, `${s.delete} to delete`];
  words.push(`${s.unchanged} unchanged`, `${s.unmanaged} unmanaged`);
  if (s.ignored > 0) words.push(`${s.ignored} ignored`);
  return words.join(", ");
}

/**
 * The flags that made a partial plan, as a user would type them again: `--target 'a*.example.com' --exclude
 * 'b.example.com'`. `quote` wraps one pattern (text: shell quotes; Markdown: escaped).
 */
export function selectionFlags(selection: Selection, quote: (pattern: string) => string): string {
  const flags = [
    ...selection.target.map((pattern) => `--target ${quote(pattern)}`),
    ...selection.exclude.map((pattern) => `--exclude ${quote(pattern)}`),
  ];
  return flags.join(" ");
}

/** What a partial plan leaves out, said the same way in every format. */
export const LEFT_OUT = "Everything else was left out: not compared, changed, deleted or counted.";

/**
 * `https://stats.example.com (websites), https://seo.example.com (projects)`: the account a plan read, in
 * every rendering (DESIGN §2: a plan never hides which account it is about); one address says it once.
 */
/** The `Account:` line's words: the fleet account's name when the plan has one, then its addresses. */
export function planAccountWords(plan: Pick<Plan, "target" | "account">): string | undefined {
  const where = accountWords(plan.target);
  if (plan.account === undefined) return where;
  return where === undefined ? plan.account : `${plan.account} (${where})`;
}

export function accountWords(target: { websites?: string; projects?: string }): string | undefined {
  const { websites, projects } = target;
  if (websites !== undefined && projects !== undefined && websites !== projects) return `${websites} (websites), ${projects} (projects)`;
  return websites ?? projects;
}
