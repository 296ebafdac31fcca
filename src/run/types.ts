/**
 * What the one orchestrator takes and gives back (DESIGN §1, §9): what an edge says (the request) → a list
 * of account runs (the Outcome). A config without `accounts:` is a fleet of one whose name is empty.
 */

import type { FileUpdate } from "../adopt/update-files.ts";
import type { Redactor } from "../api/redact.ts";
import type { ReadProgress } from "../api/types.ts";
import type { ApplyCounts, ItemResult } from "../apply/types.ts";
import type { LeftOut } from "../config/export-fit.ts";
import type { Env } from "../config/interpolate.ts";
import type { Config } from "../config/types.ts";
import type { Diagnostic } from "../errors.ts";
import type { ReviewProblem } from "../plan/intersect.ts";
import type { Change, Plan, Selection } from "../plan/types.ts";
import type { StopSignal } from "./exit-code.ts";
import type { FleetMatrix } from "./matrix.ts";

export type { Env, ReadProgress };

/**
 * `validate` only loads; `plan` also reads live and plans; `apply` also applies what was planned; `drift`
 * plans to find drift (a password apply would need is a warning of the plan there, not an error); `export`
 * writes the live account as a new config; `adopt` accepts live changes into the config in place; `matrix`
 * lists the accounts (those a change touches) for a GitHub Actions matrix.
 */
export type RunCommand = "validate" | "plan" | "apply" | "drift" | "export" | "adopt" | "matrix";

/** What the user said: flags, Action inputs, library options. Nothing the run builds for itself is here. */
export interface RunSettings {
  /** Addresses: a setting here beats the config, which beats its `SITESYNC_*_URL` (run/client-for.ts). */
  websitesUrl?: string | undefined;
  projectsUrl?: string | undefined;
  concurrency?: number | undefined;
  /** Timeout of one HTTP attempt. */
  timeoutMs?: number | undefined;
  /** The longest wait a server may ask for (Retry-After, X-RateLimit-Reset); a longer one ends the run. */
  maxWaitMs?: number | undefined;
  /** The window the server's rate limit counts in, said outright (`--rate-window`); else it is learned. */
  rateWindowMs?: number | undefined;
  /** `--account NAME` (repeatable): the accounts of a config with `accounts:` to run; every one when empty. */
  accounts?: string[] | undefined;
  /** `--sync-write-only`. */
  syncWriteOnly?: boolean | undefined;
  /** `--max-deletes N`, overriding `policy.max_deletes`. */
  maxDeletes?: number | undefined;
  /** `--allow-empty`. */
  allowEmpty?: boolean | undefined;
  /** `--target` / `--exclude`: a partial plan of only the websites and projects these globs select. */
  selection?: Selection | undefined;
  /** `--changed-since REF` (and `--full`), the Action's base: follow the change since this base (DESIGN §3). */
  changedSince?: { ref: string; full?: boolean | undefined } | undefined;
  detailedExitcode?: boolean | undefined;
  /** `validate --strict-env`: an unset `${VAR}` is an error, as in plan and apply, not a note. */
  strictEnv?: boolean | undefined;
  /** Re-read the account after applying; changes still planned did not converge. */
  verify?: boolean | undefined;
  /** `plan --out FILE`: the plan is saved there (one account's plan; a refused plan is never saved). */
  planFile?: string | undefined;
  /** `--results FILE`: where the results go as JSON; checked writable before anything is changed. */
  resultsFile?: string | undefined;
  /** `export --out FILE` (none: the text is in the Outcome); `--force` overwrites it. */
  exportFile?: string | undefined;
  force?: boolean | undefined;
  /** `export --projects`: also export the projects. */
  projects?: boolean | undefined;
  /** `adopt --add-unlisted`: also add live websites the file does not list. */
  addUnlisted?: boolean | undefined;
  /** `adopt --into FILE` (repeatable: one per account): the file of the config new websites go to. */
  into?: string[] | undefined;
  /** `adopt --dry-run`: the diff, nothing written. */
  dryRun?: boolean | undefined;
}

/** Keys given by the adapter (the Action's inputs, the library); else each account's variables. */
export interface RunSecrets {
  apiKey?: string | undefined;
  projectsApiKey?: string | undefined;
}

/** A plan a person saw, given to `apply`: only what it holds is applied (DESIGN §3). */
export type GivenPlan =
  /** `apply plan.json`: its changes that a fresh plan calls for identically; the others are stale or refused. */
  | { saved: Plan }
  /** `apply --reviewed plan.json`: the intersection of this plan and a fresh one; the rest is not reviewed. */
  | { reviewed: Plan }
  /**
   * The merge (the Action): what the pull request's comment holds for each account, by name ("" for a config
   * without `accounts:`), and why an account it holds nothing for has no review.
   */
  | { reviewedByAccount: ReadonlyMap<string, ReviewSource>; otherwise: MissingReview };

/** What an edge says. What the run builds for itself (schedulers, change bases, hooks) is its scope (run/scope.ts). */
export interface RunRequest {
  command: RunCommand;
  /** A path to load, or a config already loaded; none for `export`. */
  config?: string | Config | undefined;
  /** The environment, read once at the edge: `${VAR}` values, keys and URLs. */
  env: Env;
  secrets?: RunSecrets | undefined;
  settings?: RunSettings | undefined;
  given?: GivenPlan | undefined;
  /** Every secret of the run is added here as soon as it is known. */
  redactor: Redactor;
  /**
   * A graceful stop (the edge aborts it on SIGINT/SIGTERM, with the signal's name as reason): no new
   * request is sent, requests in flight finish, the results are still written, and the exit code is 130/143.
   */
  signal?: AbortSignal | undefined;
}

/** A reviewed plan, or why there is none usable (a direct push, a stale or edited review...). */
export type ReviewSource = Plan | { missing: MissingReview };

/** Why there is no usable reviewed plan, as the adapter that looked for one found it (render/ words it). */
export type MissingReview =
  /** The Action ran apply on another event than a push. */
  | { code: "not-a-push"; event: string }
  /** The push merged no pull request. */
  | { code: "direct-push"; sha: string }
  /** The merged pull request has no plan comment for this config written by the Action's identity. */
  | { code: "no-comment"; pullRequest: number; config: string; identity: string }
  /** The plan comment has no section for the account: its leg did not plan the pull request. */
  | { code: "no-section"; pullRequest: number }
  /** The plan comment's reviewed plan was made for another head commit than the one merged. */
  | { code: "stale"; pullRequest: number; problem: string }
  /** The plan comment's reviewed plan is unusable (damaged, edited, too large, for another config...). */
  | { code: "unusable"; pullRequest: number; problem: string };

/**
 * How a reviewed apply went, decided once from data (run/review-status.ts) for `apply --reviewed` and the
 * merge alike: `applied` (every reviewed change due was applied, or none was due), `partial` (some were not:
 * not reviewed, or failed), `nothing-applied` (changes were due and none was applied: an error, a refusal,
 * only failures), `stale` (the review was made for another head commit), `missing` (no usable review).
 */
export type ReviewStatus = "applied" | "partial" | "nothing-applied" | "stale" | "missing";

/** How a reviewed apply went, beyond its results (the changes it did not apply are `AccountRun.skipped`). */
export interface ReviewOutcome {
  status: ReviewStatus;
  /** Reviewed changes the fresh plan no longer calls for (the account already matches): not failures. */
  noLongerNeeded: Change[];
  /** Why the review approves nothing at all, when it does not: the plan's own problem, or why there is none. */
  problem?: ReviewProblem | { code: "missing"; missing: MissingReview };
}

/** What the results file holds. */
export interface ApplyReport {
  counts: ApplyCounts;
  /** Every change: applied, failed, or skipped with its reason (on purpose, or not started). */
  items: ItemResult[];
  /** Set when a 401/403 or a bad key ended the run early. */
  aborted?: string;
  /** Set when a stop signal ended the run: the changes not started are skipped, `not-started`. */
  interrupted?: StopSignal;
}

/** `adopt`: each file of the account's config with the live changes accepted, or refused. */
export interface Adopted {
  /** The files updated, in the order read. One file refused refuses them all: none is written. */
  files: FileUpdate[];
  /** Live websites no file lists and none was added to. */
  unmanaged: string[];
  projectChanges: number;
  /** The files written (none with `dryRun`, or when one was refused). */
  written: string[];
}

/** The variables an account's keys come from: errors name them (`check SITESYNC_EU_API_KEY`). */
export interface KeyVariables {
  apiKeyEnv: string;
  projectsApiKeyEnv: string;
}

/** One account's run. */
export interface AccountRun {
  /** Its name under `accounts:`; "" for a config without `accounts:`. */
  name: string;
  /** The addresses it read, or (it failed before reading) those its file names. */
  target: Plan["target"];
  keys: KeyVariables;
  plan?: Plan;
  /** `plan --out`: where the plan was saved (a refused plan is not). */
  planFile?: string;
  /**
   * The one list of changes skipped on purpose, each with its reason: a saved plan's stale, refused or
   * already applied ones, a reviewed apply's not reviewed ones. Once apply ran they are among `results.items` too.
   */
  skipped: ItemResult[];
  /** Set once apply ran: every item, stale ones included. */
  results?: ApplyReport;
  /** A reviewed apply: how its review went. */
  review?: ReviewOutcome;
  /** A saved plan: how many differences a fresh plan finds that the saved plan does not hold (not applied). */
  notInSavedPlan?: number;
  /** With `verify`: the changes a fresh plan still finds after applying. */
  unconverged?: Change[];
  /** `export`: the live account as a config file, and where it was written (none: it is the output). */
  /** `websites` counts those the file lists; `leftOut`, what no config can hold (config/export-fit.ts). */
  exported?: { yaml: string; websites: number; leftOut: LeftOut[]; projects?: number; file?: string };
  /** `adopt`: the account's files with its live changes accepted, or why they cannot be. */
  adopted?: Adopted;
  /** Set when the run's stop signal ended it (mid-read or mid-apply), not when the prompt was cancelled. */
  interrupted?: StopSignal;
  /** What ended this account's run early: an ApiError, a SafetyError, a key not set... */
  error?: unknown;
  /** DESIGN §7, from run/exit-code.ts. */
  exitCode: number;
}

export interface Outcome {
  command: RunCommand;
  /** The config loaded (a fleet's whole config), when it loaded. */
  config?: Config;
  warnings: Diagnostic[];
  /** Every account run, in the order the root file lists them; one, named "", without `accounts:`. */
  accounts: AccountRun[];
  /** `matrix`: the legs. */
  matrix?: FleetMatrix;
  /** Where the results were written (`--results`), for every account of the run. */
  resultsFile?: string;
  /** What ended the run before (or across) its accounts: a ConfigError, a UsageError... */
  error?: unknown;
  /** Set when the stop signal ended the run before its accounts ran. */
  interrupted?: StopSignal;
  /** The worst account's exit code, or the error's (DESIGN §7). */
  exitCode: number;
}
