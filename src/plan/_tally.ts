/** What the planning passes accumulate before `plan` orders, counts, checks and hashes it. */
import type { SourcePos } from "../model/website.ts";
import { WRITE_ONLY_FIELDS, type WriteOnlyField } from "../model/website-fields.ts";
import type { Action, Change, PlanSummary, PlanWarning } from "./types.ts";

export interface Tally {
  changes: Change[];
  warnings: PlanWarning[];
  /** Items no change is planned for, by why; the changes are counted from `changes` (`summarize`). */
  left: Omit<PlanSummary, Action>;
  /** Per write-only field: live websites that set it and that this plan does not send it to. */
  unverifiable: Record<WriteOnlyField, number>;
}

/** Returns the first glob of a policy list that matches a name, or `undefined`. */
type GlobSet = (name: string) => string | undefined;

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
    left: { unchanged: 0, unmanaged: 0, ignored: 0 },
    unverifiable: Object.fromEntries(WRITE_ONLY_FIELDS.map((field) => [field, 0])) as Record<WriteOnlyField, number>,
  };
}

/** Counts an unlisted live item as ignored or unmanaged; `true` when prune deletes it instead. */
export function pruned(name: string, filters: Filters, tally: Tally): boolean {
  if (filters.ignore(name) !== undefined) tally.left.ignored++;
  else if (!filters.prune || filters.protect(name) !== undefined) tally.left.unmanaged++;
  else return true;
  return false;
}

/** Records a warning about one item, with the config position when there is one. */
export function warn(tally: Tally, code: string, subject: string, message: string, source?: SourcePos): void {
  tally.warnings.push(source === undefined ? { code, subject, message } : { code, subject, message, source: { ...source } });
}

/** The `source` member of a change, present only when the item was written in the config. */
export function sourceOf(item: { source?: SourcePos }): { source?: SourcePos } {
  return item.source === undefined ? {} : { source: { ...item.source } };
}
