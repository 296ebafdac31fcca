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
 * A run's whole cost, worded once for every adapter and the library (DESIGN §5): `≈ 105 requests: 101 reads,
 * 4 writes; about 1–2 min at 60/min`. The time is a range where the window the run starts in is unknown
 * (`plan/estimate.ts`): `within the rate limit` when the budget left covers every request, `up to 1 min` when
 * only a spent window would make it wait. A plan saved before reads were counted says only its writes.
 */
export function formatEstimate(e: PlanEstimate): string {
  const total = (e.reads ?? 0) + e.requests;
  const split = e.reads === undefined ? "" : `: ${plural(e.reads, "read")}, ${plural(e.requests, "write")}`;
  const rate = e.rateWindowSeconds === 60 ? `${e.rateLimit}/min` : `${e.rateLimit}/${e.rateWindowSeconds}s`;
  const most = e.secondsAtMost ?? e.seconds;
  const time = most < 0.5 ? `within the rate limit (${rate})` : `${timeRange(e.seconds, most)} at ${rate}`;
  return `≈ ${plural(total, "request")}${split}; ${time}`;
}

/** Whether a plan's estimate has anything to say: writes to send, or reads it took. */
export function hasEstimate(e: PlanEstimate): boolean {
  return e.requests > 0 || (e.reads ?? 0) > 0;
}

/** `about 2 min`, `about 1–2 min`, `about 40 s–2 min`, `up to 58 s`. */
function timeRange(least: number, most: number): string {
  const to = duration(most);
  if (least <= 0) return `up to ${to.value} ${to.unit}`;
  const from = duration(least);
  if (from.unit !== to.unit) return `about ${from.value} ${from.unit}–${to.value} ${to.unit}`;
  return from.value === to.value ? `about ${to.value} ${to.unit}` : `about ${from.value}–${to.value} ${to.unit}`;
}

/** Seconds under a minute, else minutes: to the half under ten, whole above. */
function duration(seconds: number): { value: number; unit: "s" | "min" } {
  if (seconds < 59.5) return { value: Math.max(1, Math.round(seconds)), unit: "s" };
  const minutes = seconds / 60;
  return { value: minutes < 10 ? Math.round(minutes * 2) / 2 : Math.round(minutes), unit: "min" };
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
