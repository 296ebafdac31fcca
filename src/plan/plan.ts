/**
 * `plan`: the pure heart of sitesync (DESIGN §1, §3). Desired and live state in, a Plan out: no I/O, no clock,
 * no randomness, and the same plan (and hash) whatever order the inputs came in.
 */
import { firstMatch } from "../model/glob.ts";
import { byCodePoint } from "../model/sorted.ts";
import type { Desired, Live } from "../model/state.ts";
import { WRITE_ONLY_FIELDS } from "../model/website-fields.ts";
import { type Filters, newTally, type Tally } from "./_tally.ts";
import { ASSUMED_RATE, estimate, fullReadRequests } from "./estimate.ts";
import { sealPlan } from "./fingerprint.ts";
import { isScoped, narrowToChange, type PlanChange, sendsOf, sinceOf } from "./follow-change.ts";
import { planProjects } from "./plan-projects.ts";
import { planWebsites } from "./plan-websites.ts";
import { refusals } from "./safety.ts";
import { isPartial, narrow } from "./selection.ts";
import { summarize } from "./summary.ts";
import type { Change, Plan, RateKnown, Selection } from "./types.ts";

/** Options of {@link plan}: what the plan records about its origin, and the command line's overrides. */
export interface PlanOptions {
  /** The config file the plan is made from, recorded in the plan. */
  configFile: string;
  /** sha256 of the config file's bytes: `apply plan.json` refuses to run when it changed. */
  configDigest: string;
  /** The API base URLs the live state was read from (recorded, so a saved plan applies only there). */
  target?: Plan["target"];
  /** The account of a fleet the plan is for (`accounts:` in the root file); recorded, so that `apply plan.json` runs it alone. */
  account?: string | undefined;
  /** `--sync-write-only`: send every write-only value the config sets, though none can be compared. */
  syncWriteOnly?: boolean;
  /** `--max-deletes N`: overrides `policy.maxDeletes`. */
  maxDeletes?: number;
  /** `--allow-empty`: let prune delete everything when the config lists nothing. */
  allowEmpty?: boolean;
  /**
   * What the run knows of the server's rate limit, for the estimate: the client's `stats().rate`. Default: the
   * real API's 60 requests per 60 s (API-NOTES §1), the budget unknown.
   */
  rate?: RateKnown | undefined;
  /**
   * `--target` / `--exclude`: plan only the websites and projects these globs select; prune, counts and the
   * safety rails then act inside the selection only, and the plan records the patterns.
   */
  selection?: Selection;
  /**
   * The change to follow (DESIGN §3): write-only values it edits are sent with their reason, and a scoped
   * plan covers only the names it touches (the live side then holds their lookups). Without a known change,
   * write-only values the plan cannot verify are counted in `unverifiable`.
   */
  change?: PlanChange;
  /** The GET requests the live side took (the plan's own reads), for the estimate (DESIGN §5). Default: a full read of `live`. */
  reads?: number;
}

const ACTION_RANK = { create: 0, update: 1, delete: 2 } as const;
const KIND_RANK = { website: 0, project: 1 } as const;

/**
 * Computes the changes that bring the live account in line with the desired state, with counts, warnings,
 * refusals by the safety rails, and an estimate of the requests that applying will send.
 */
export function plan(allDesired: Desired, allLive: Live, options: PlanOptions): Plan {
  const { selection, selected, desired, live } = scopeOf(allDesired, allLive, options);
  const filters = filtersOf(desired.policy);
  const tally = newTally();
  for (const warning of selected.warnings) tally.warnings.push(warning);
  const writeOnly = { sync: options.syncWriteOnly ?? false, change: sendsOf(options.change) };
  planWebsites(desired.websites, live.websites, filters, writeOnly, tally);
  if (desired.projects !== undefined) planProjects(desired.projects, live.projects, filters, tally);
  const changes = tally.changes.sort(compareChanges);
  return sealPlan({
    format: "sitesync-plan",
    version: 1,
    configDigest: options.configDigest,
    configFile: options.configFile,
    target: options.target ?? {},
    ...(options.account === undefined ? {} : { account: options.account }),
    // First things a reader of the JSON sees after where the plan was made: the change it followed, that it is partial.
    ...(options.change ? { since: sinceOf(options.change) } : {}),
    ...(selection ? { selection } : {}),
    changes,
    summary: summarize(changes, tally.left),
    warnings: tally.warnings,
    refusals: refusalsOf(changes, selected.desired, filters, options, selection !== undefined),
    unverifiable: unverifiableFields(tally),
    estimate: estimate(changes, options.rate ?? ASSUMED_RATE, options.reads ?? fullReadRequests(allLive)),
  });
}

/** What a plan compares: the selection's part of both sides (`--target`/`--exclude`), then the change's part. */
function scopeOf(allDesired: Desired, allLive: Live, options: PlanOptions) {
  const selection = isPartial(options.selection)
    ? { target: [...options.selection.target], exclude: [...options.selection.exclude] }
    : undefined;
  const selected = selection ? narrow(allDesired, allLive, selection) : { desired: allDesired, live: allLive, warnings: [] };
  const { desired, live } = isScoped(options.change) ? narrowToChange(selected.desired, selected.live, options.change.change) : selected;
  return { selection, selected, desired, live };
}

function filtersOf(policy: Desired["policy"]): Filters {
  return {
    ignore: (name: string) => firstMatch(policy.ignore, name),
    protect: (name: string) => firstMatch(policy.protect, name),
    prune: policy.prune,
  };
}

/** The safety rails on the changes, asked of the whole selected file (DESIGN §3). */
function refusalsOf(changes: Change[], desired: Desired, filters: Filters, options: PlanOptions, partial: boolean) {
  return refusals({
    changes,
    maxDeletes: options.maxDeletes ?? desired.policy.maxDeletes,
    prune: desired.policy.prune,
    allowEmpty: options.allowEmpty ?? false,
    // An ignored entry keeps nothing: a file that lists only ignored names is, for prune, an empty file. A
    // scoped plan still asks the whole file: it lists what it lists, touched or not.
    keepsWebsites: desired.websites.some((w) => w.state === "present" && !filters.ignore(w.domain)),
    keepsProjects: desired.projects?.some((p) => p.state === "present" && !filters.ignore(p.project)),
    partial,
  });
}

/** Apply order (DESIGN §6): creates, updates, deletes; website deletes before project deletes; then by name. */
function compareChanges(a: Change, b: Change): number {
  const rank = ACTION_RANK[a.action] - ACTION_RANK[b.action] || KIND_RANK[a.kind] - KIND_RANK[b.kind];
  return rank || byCodePoint(nameOf(a), nameOf(b));
}

function nameOf(change: Change): string {
  return change.kind === "website" ? change.domain : change.project;
}

/**
 * Write-only values that exist live but are not sent: the plan cannot tell whether they match (DESIGN §3).
 * Data only: the renderers say what it means and what to do.
 */
function unverifiableFields(tally: Tally): Plan["unverifiable"] {
  return WRITE_ONLY_FIELDS.map((field) => ({ field, count: tally.unverifiable[field] })).filter((entry) => entry.count > 0);
}
