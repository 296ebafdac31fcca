/** What the one orchestrator takes and gives back (DESIGN §9: config + env + settings -> Outcome). */

import type { FileUpdate } from "../adopt/update-files.ts";
import type { Redactor } from "../api/redact.ts";
import type { Scheduler } from "../api/scheduler.ts";
import type { LearnedRate, ReadProgress, RequestLogEntry, ServerWait } from "../api/types.ts";
import type { ApplyCounts, ItemResult } from "../apply/types.ts";
import type { Env } from "../config/interpolate.ts";
import type { Config, LoadResult } from "../config/types.ts";
import type { Diagnostic } from "../errors.ts";
import type { ReviewProblem } from "../plan/intersect.ts";
import type { Change, Plan } from "../plan/types.ts";
import type { StopSignal } from "./exit-code.ts";
import type { PlanSettings } from "./plan-from-config.ts";

export type { Env, ReadProgress };

/**
 * `validate` only loads; `plan` also reads live and plans; `apply` also applies what was planned; `export`
 * reads live and writes it as a config (with `settings.export.update`, into the config it loads).
 */
type RunCommand = "validate" | "plan" | "apply" | "export";

/** How `export` writes the account. */
interface ExportSettings {
  /** `--update`: accept the live changes into `request.config` in place, instead of a new file. */
  update?: boolean;
  /** `--add-unlisted` (with `update`): also add live websites the file does not list. */
  addUnlisted?: boolean;
  /** `--into FILE` (with `update`, repeatable: one per account): the file of the config new websites go to. */
  into?: string[];
  /** `--projects` (without `update`): also export the projects. */
  projects?: boolean;
  /** The `$schema=` of the new file's modeline, relative to where it goes. */
  schemaPath?: string;
}

/** How the client connects; a URL here beats the config, which beats its `SITESYNC_*_URL` (run/client-for.ts). */
export interface ConnectSettings {
  websitesUrl?: string | undefined;
  projectsUrl?: string | undefined;
  concurrency?: number | undefined;
  timeoutMs?: number | undefined;
  /** The longest wait a server may ask for (Retry-After, X-RateLimit-Reset); a longer one ends the run. */
  maxWaitMs?: number | undefined;
  /** The window the server's rate limit counts in, said outright (`--rate-window`); else it is learned. */
  rateWindowMs?: number | undefined;
}

/** Keys given by the adapter (the Action's inputs); else `SITESYNC_API_KEY` and `SITESYNC_PROJECTS_API_KEY`. */
export interface RunSecrets {
  apiKey?: string | undefined;
  projectsApiKey?: string | undefined;
}

export interface RunSettings extends PlanSettings, ConnectSettings {
  /** `--account NAME` (repeatable): the accounts of a config with `accounts:` to run; every one when empty. */
  accounts?: string[];
  /** `plan --out`: the plan is to be saved, and a saved plan is one account's (checked before any request). */
  savesPlan?: boolean;
  detailedExitcode?: boolean;
  /** `validate --strict-env`: an unset `${VAR}` is an error, as in plan and apply, not a note. */
  strictEnv?: boolean;
  /** Re-read the account after applying; changes still planned did not converge. */
  verify?: boolean;
  /**
   * A plan saved by `plan --out`: only its changes that a fresh plan calls for identically are applied
   * (run/reviewed.ts); the others are skipped as stale or refused.
   */
  savedPlan?: Plan | undefined;
  /**
   * `apply --reviewed` and the Action on merge: apply the intersection of this reviewed plan and a fresh
   * plan, and report every other change as not reviewed. `{ missing }` (no usable review) applies nothing.
   */
  reviewed?: ReviewSource | undefined;
  /** `export`: what to write. */
  export?: ExportSettings;
  /** Where the results go as JSON; a plain path is checked writable before anything is changed. */
  resultsFile?: string | ((plan: Plan) => string) | undefined;
}

export interface RunRequest {
  command: RunCommand;
  /** A path to load, or a config already loaded; none for `export` of a new file. */
  config?: string | Config | undefined;
  /** The environment, read once at the edge: `${VAR}` values, keys and URLs. */
  env: Env;
  secrets?: RunSecrets;
  settings?: RunSettings;
  /** Every secret of the run is added here as soon as it is known. */
  redactor: Redactor;
  /**
   * A graceful stop (the edge aborts it on SIGINT/SIGTERM, with the signal's name as reason): no new
   * request is sent, requests in flight finish, the results are still written, and the exit code is 130/143.
   */
  signal?: AbortSignal | undefined;
  /**
   * One scheduler per server origin, shared by the accounts of one run (run-accounts.ts): accounts on one
   * server share its rate budget (DESIGN §6). Set by the orchestrator, never by an adapter.
   */
  schedulers?: Map<string, Scheduler> | undefined;
}

/** Where an adapter shows what happens while the run goes on. */
export interface RunHooks {
  /** The config was loaded (its secrets already redacted): warnings, or errors before the run ends. */
  onLoad?(result: LoadResult): void;
  onRequest?(entry: RequestLogEntry): void;
  /** A server asked for a pause that the run waits out (within `--max-wait`). */
  onWait?(wait: ServerWait): void;
  /** How a read goes: pages read of total, a re-read and why, a wait for the rate budget (DESIGN §5). */
  onProgress?(event: ReadProgress): void;
  /** A server's rate-limit window was learned (once per server; never when `--rate-window` says it). */
  onRateLearned?(learned: LearnedRate): void;
  /** A plan was made (or a saved plan checked); `skipped` holds the changes that are not applied on purpose. */
  onPlan?(plan: Plan, skipped: readonly ItemResult[]): void | Promise<void>;
  /** Called before applying anything; throwing cancels the run. */
  approve?(plan: Plan): Promise<void>;
  /** An item finished; `account` names it when the run has several accounts (their items interleave). */
  onItem?(item: ItemResult, done: number, total: number, account?: string): void;
  /** The words of an item's reason for the results file (render/'s `itemNote`); without it the file holds codes only. */
  noteOf?(item: ItemResult): string | undefined;
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
  /** The plan comment's reviewed plan is unusable (damaged, edited, stale, for another config...). */
  | { code: "unusable"; pullRequest: number; problem: string };

/** How a reviewed apply went, beyond its results (the changes it did not apply are `Outcome.skipped`). */
export interface ReviewOutcome {
  /** A usable reviewed plan was given. */
  reviewed: boolean;
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

/** One account's run, in a config of many accounts. */
export interface AccountOutcome {
  name: string;
  outcome: Outcome;
}

/** `export --update`: each file of the config (of the account) with the live changes accepted, or refused. */
export interface ConfigUpdate {
  /** The root file, as given. */
  file: string;
  /**
   * The files updated, in the order read: the root alone for a config of one file. One file refused
   * refuses them all: none is written.
   */
  files: FileUpdate[];
  /** A config of many files or accounts: what no one file's summary says. Absent for a config of one file. */
  many?: {
    /** Live websites no file lists and none was added to. */
    unmanaged: string[];
    projectChanges: number;
    /** The account read, for the heading of its section. */
    target: { websites?: string; projects?: string };
  };
}

export interface Outcome {
  command: RunCommand;
  /**
   * A config with `accounts:` (plan, apply): each selected account's own Outcome, in the order the root file
   * lists them; the run's exit code is the worst of theirs.
   */
  accounts?: AccountOutcome[];
  config?: Config;
  warnings: Diagnostic[];
  plan?: Plan;
  /** Set once apply ran: every item, stale ones included. */
  results?: ApplyReport;
  /**
   * The one list of changes skipped on purpose, each with its reason: a saved plan's stale, refused or
   * already applied ones, a reviewed apply's not reviewed ones. Once apply ran they are among `results.items` too.
   */
  skipped: ItemResult[];
  /** With `reviewed`: what the review covered and what it did not. */
  review?: ReviewOutcome;
  /** With `savedPlan`: how many differences a fresh plan finds that the saved plan does not hold (not applied). */
  notInSavedPlan?: number;
  resultsFile?: string;
  /** With `verify`: the changes a fresh plan still finds after applying. */
  unconverged?: Change[];
  /** Set when the run's stop signal ended it (mid-read or mid-apply), not when the prompt was cancelled. */
  interrupted?: StopSignal;
  /** What ended the run early: a ConfigError, ApiError, UsageError, SafetyError... */
  error?: unknown;
  /** `export`: the live account as a config file. */
  exported?: { yaml: string; websites: number; projects?: number };
  /** `export --update`: the config with the account's live changes accepted, or why they cannot be. */
  updated?: ConfigUpdate;
  /** DESIGN §7, from run/exit-code.ts. */
  exitCode: number;
}
