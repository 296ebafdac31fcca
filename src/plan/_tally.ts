/** What the planning passes accumulate before `plan` orders, checks and hashes it. */
import type { Change, PlanSummary, PlanWarning } from "./types.ts";
import type { SourcePos } from "../model/website.ts";
import type { WriteOnlyField } from "../model/website.ts";

export interface Tally {
  changes: Change[];
  warnings: PlanWarning[];
  summary: PlanSummary;
  /** Per write-only field: live websites that set it and that this plan does not send it to. */
  unverifiable: Record<WriteOnlyField, number>;
}

/** Returns the first glob of a policy list that matches a name, or `undefined`. */
export type GlobSet = (name: string) => string | undefined;

/** `policy.ignore` and `policy.protect` as matchers, and whether prune is on. */
export interface Filters {
  ignore: GlobSet;
  protect: GlobSet;
  prune: boolean;
}

export function newTally(): Tally {
  return {
    changes: [],
    warnings: [],
    summary: { create: 0, update: 0, delete: 0, unchanged: 0, unmanaged: 0, ignored: 0 },
    unverifiable: { password: 0, exclude_params: 0 },
  };
}

/** `"1 website"`, `"2 websites"`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** Code-point order: the same everywhere, unlike `localeCompare`. */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Records a warning about one item, with the config position when there is one. */
export function warn(tally: Tally, code: string, subject: string, message: string, source?: SourcePos): void {
  tally.warnings.push(source === undefined ? { code, subject, message } : { code, subject, message, source: { ...source } });
}

/** The `source` member of a change, present only when the item was written in the config. */
export function sourceOf(item: { source?: SourcePos }): { source?: SourcePos } {
  return item.source === undefined ? {} : { source: { ...item.source } };
}
