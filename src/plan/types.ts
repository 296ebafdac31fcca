/**
 * The Plan: plain JSON-serializable data (DESIGN §3, STYLE habit 3). Renderers and `apply` read it; nothing
 * re-derives changes from it. It never holds a secret: a password renders as `SENSITIVE` and `apply` takes
 * the values from the config it was planned from.
 */
import type { FullReadCause, UnknownChangeReason, WriteOnlyEdit } from "../model/config-change.ts";
import type { SourcePos } from "../model/website.ts";
import type { FieldName, WebsiteFields, WriteOnlyField } from "../model/website-fields.ts";

/** Placeholder that stands where a secret value would be. */
export const SENSITIVE = "(sensitive)";

/** A value as the plan shows it. Passwords are always `SENSITIVE`; an unknown write-only value is `null`. */
export type FieldValue = NonNullable<WebsiteFields[FieldName]> | null;

export interface FieldChange {
  field: FieldName;
  /** The live value; `null` for a write-only field the API never returns (it cannot be verified). */
  before: FieldValue;
  after: FieldValue;
  /** The value is a secret and is shown as `SENSITIVE`. */
  sensitive?: true;
  /** The API never returns this field: the change is sent without knowing the current value. */
  writeOnly?: true;
  /**
   * Why a write-only field is sent on update (DESIGN §3): privacy becomes password, the site is password
   * protected but has no password stored (observable: API-NOTES §2.1), or `--sync-write-only`. An update's
   * write-only field carries this or `changedSince`.
   */
  sentBecause?: WriteOnlyReason;
  /**
   * Sent because the change since a base revision edits it (DESIGN §3): the base, and whether the value was
   * `edited` (its line differs) or `rotated` (`password_version` differs). Never a value. `resend`: the
   * website was written after `commit`, the commit the config now is: applying this change sent the
   * value already, and this sends it again (a plan that only re-sends is no change to `--detailed-exitcode`).
   */
  changedSince?: { ref: string; edit: WriteOnlyEdit; resend?: { commit: string } };
}

export type WriteOnlyReason = "privacy-change" | "no-password" | "sync-write-only";

interface ChangeBase {
  /** Where the item is written in the config, when it is. */
  source?: SourcePos;
}

/**
 * A secret apply would have to send and the config does not give (DESIGN §2, §7): the change is planned and
 * counted like any other (a drift check reports it: exit 2), and `apply` refuses it, before any write, until
 * the config sets the secret. A plan never sends anything, so it never fails for want of one. Why it must be
 * sent: a create with privacy password, privacy becoming password on a site with no password stored, or the
 * change since `ref` rotating it (`password_version`). Data only: render/ says what to add and where.
 */
export type SecretNeed =
  | { secret: "password"; because: "create" | "privacy-change" }
  | { secret: "password"; because: "rotated"; ref: string };

export interface WebsiteCreate extends ChangeBase {
  kind: "website";
  action: "create";
  domain: string;
  /** Every value sent on create (explicit privacy, email and exclude_bots included: DESIGN §2). */
  fields: FieldChange[];
  /** POST, then PUT when `favorite` is set (favorite is only settable by PUT: DESIGN §4). */
  requests: 1 | 2;
  /** A secret it must send that the config does not set: `apply` refuses this change. */
  needs?: SecretNeed;
}

export interface WebsiteUpdate extends ChangeBase {
  kind: "website";
  action: "update";
  domain: string;
  id: number;
  /**
   * Only the fields that differ (plus write-only fields that must be sent); empty only when the change is
   * a rotation the config gives no password for (`needs`).
   */
  fields: FieldChange[];
  /** Fingerprint of the live item this change was computed from. */
  fingerprint: string;
  /** A secret it must send that the config does not set: `apply` refuses this change. */
  needs?: SecretNeed;
}

export interface WebsiteDelete extends ChangeBase {
  kind: "website";
  action: "delete";
  domain: string;
  id: number;
  /** `tombstone`: the file says `state: absent`; `prune`: the file does not list it and prune is on. */
  reason: "tombstone" | "prune";
  fingerprint: string;
}

export interface ProjectDelete extends ChangeBase {
  kind: "project";
  action: "delete";
  project: string;
  reason: "tombstone" | "prune";
  fingerprint: string;
}

export type Change = WebsiteCreate | WebsiteUpdate | WebsiteDelete | ProjectDelete;
export type Action = Change["action"];

export interface PlanWarning {
  code: string;
  message: string;
  /** The website domain or project name it concerns. */
  subject?: string;
  source?: SourcePos;
}

/** A safety rail that refuses the whole plan (exit 4); each has its own override, where one exists. */
export type Refusal =
  /** More deletes than the limit in force (`--max-deletes`, else `policy.max_deletes`). */
  | { code: "max-deletes"; websites: number; projects: number; limit: number; partial: boolean }
  /** Prune with nothing listed to keep: `pruned` live websites (or projects) would go. */
  | { code: "empty-prune"; kind: Change["kind"]; pruned: number; partial: boolean };

/** Counts of the plan. `create`, `update` and `delete` are counted from `changes` (`summarize`). */
export interface PlanSummary {
  create: number;
  update: number;
  delete: number;
  unchanged: number;
  /** Live but not listed, with prune off. */
  unmanaged: number;
  /** Matched by `policy.ignore`. */
  ignored: number;
}

/**
 * A run of the plan, in requests and time (DESIGN §5): its reads and writes at the server's rate limit, as a
 * range where the window the run starts in is unknown (`estimate.ts`).
 */
export interface PlanEstimate {
  /** Requests that applying will send (creates with favorite count two): the writes. */
  requests: number;
  /** The reads the plan took (every page of a full read, or a scoped plan's lookups); absent from plans saved before it was counted. */
  reads?: number;
  /** The server's limit used for the estimate, requests per window. */
  rateLimit: number;
  rateWindowSeconds: number;
  /** The rate budget left when the plan was made, and the seconds until its window was expected to end, when known. */
  budget?: { remaining: number; refillSeconds: number };
  /** The least wall time of a run of the plan, reads and writes: started in a fresh window. */
  seconds: number;
  /** The most: started in a window already spent; 0 when the budget the plan left covers every request. */
  secondsAtMost?: number;
}

/**
 * What the run knows of the server's rate limit when it plans (DESIGN §6): `limit` requests per `windowMs`
 * (said with `--rate-window`, learned, or the real API's minute assumed), and the budget left now with the
 * time until its window ends, when the run has seen one. The client's `stats().rate` is one.
 */
export interface RateKnown {
  limit: number;
  windowMs: number;
  budget?: { remaining: number; refillsInMs: number } | undefined;
}

/**
 * `--target` / `--exclude` globs (DESIGN §7): a partial plan covers only the websites (by normalized domain)
 * and projects (by name) that match a target (every one, when there is none) and no exclude.
 */
export interface Selection {
  target: string[];
  exclude: string[];
}

/** What a scoped plan did not look at: drift of websites the change does not touch, live websites the file does not list. */
export type NotEvaluated = "untouched-drift" | "unlisted-live";

/**
 * The change a plan followed (DESIGN §3): scoped to the touched names, read in full with the causes, or no
 * change known (the base could not be read or loaded), so write-only values were only counted.
 */
export type PlanSince =
  | {
      known: true;
      ref: string;
      commit?: string;
      read: "scoped";
      /** The touched websites (normalized domains) and projects: the only ones read, compared, changed or deleted. */
      websites: string[];
      projects: string[];
      notEvaluated: NotEvaluated[];
    }
  | { known: true; ref: string; commit?: string; read: "full"; because: FullReadCause[] }
  | {
      known: false;
      ref: string;
      reason: UnknownChangeReason;
      /** The file the reason is about, when it is one the root includes (relative to the root's folder). */
      file?: string;
    };

export interface Plan {
  format: "sitesync-plan";
  version: 1;
  /** sha256 of the canonical JSON of every other field (`planHash`). */
  hash: string;
  /** sha256 of the config file's bytes. */
  configDigest: string;
  /** The file the plan was made from. */
  configFile: string;
  /** The API base URLs the plan was made against: a saved plan is never applied to another account. */
  target: { websites?: string; projects?: string };
  /** The account of a fleet the plan was made for (its name under the root's `accounts:`); absent for one account. */
  account?: string;
  /** Changes in apply order (creates, updates, deletes), each group sorted by domain / project. */
  changes: Change[];
  summary: PlanSummary;
  warnings: PlanWarning[];
  refusals: Refusal[];
  /**
   * Write-only fields the plan cannot verify, per field: how many existing managed websites set them without
   * this plan sending them (so none with `--sync-write-only`). Only fields with a count above 0. Data only:
   * the renderers phrase the warning.
   */
  unverifiable: { field: WriteOnlyField; count: number }[];
  estimate: PlanEstimate;
  /** Present only when the plan was asked to follow a change (`--changed-since REF`, the Action). */
  since?: PlanSince;
  /**
   * Present only on a partial plan: the patterns that made it. Whatever they leave out was not compared,
   * changed, deleted or counted; a saved plan keeps them, and every rendering says so.
   */
  selection?: Selection;
}
