import type { AlreadyAppliedEvidence } from "../plan/already-applied.ts";
import type { NotReviewedReason, SavedRefusal } from "../plan/intersect.ts";
import type { Change } from "../plan/types.ts";

export type ItemStatus = "applied" | "failed" | "skipped";

/**
 * Why an item ended as it did, as a code (STYLE habit 16); render/ words it, nothing else reads words.
 * - applied: `applied`; `adopted` (a POST's answer was lost but the site exists, DESIGN §6); `already-gone`
 *   (a delete answered 404: its goal is reached).
 * - failed: `failed` (the error says why); `incomplete` (created, then the PUT that follows failed); `taken`
 *   (a create refused because the domain exists: in this account since the plan was read, or in another).
 * - skipped, by the run: `not-started` (a stop signal came first); `not-attempted` (a 401/403 ended the run).
 * - skipped on purpose: `stale` (a saved change whose live item moved); `already-applied` (a saved change
 *   the account shows done); `refused` (a saved change a fresh plan does not call for identically);
 *   `not-reviewed` (a change of the fresh plan that the reviewed plan does not hold identically);
 *   `needs-secret` (a change flagged `needs`: it would send a secret the config does not set).
 */
export type ItemReason =
  | "applied"
  | "adopted"
  | "already-gone"
  | "failed"
  | "incomplete"
  | "taken"
  | "not-started"
  | "not-attempted"
  | "stale"
  | "already-applied"
  | "refused"
  | "not-reviewed"
  | "needs-secret";

/** The structured detail of a reason, where it has one. */
export type ItemDetail =
  /** `not-started`: the signal that stopped the run. */
  | { signal: string }
  /** `not-attempted`: the error that ended the run before this change was tried. */
  | { cause: string }
  /** `taken`: who has the domain now (this account: since the plan read it, e.g. another run applied it). */
  | { takenBy: "this-account"; id: number }
  | { takenBy: "another-account" }
  /** `incomplete`: what the request after the create did not do. */
  | { missing: "favorite" | "values" }
  /** `stale` and `refused`: why a saved change is not applied. */
  | { why: SavedRefusal }
  /** `not-reviewed`: why, and what the reviewed plan would have done instead. */
  | { why: NotReviewedReason; reviewedAction?: Change["action"] }
  | AlreadyAppliedEvidence;

/** What happened to one planned change. JSON-serializable; never holds a secret. */
export interface ItemResult {
  change: Change;
  status: ItemStatus;
  reason: ItemReason;
  detail?: ItemDetail;
  /** Website id after a create (or the id adopted after an ambiguous POST). */
  id?: number;
  error?: { message: string; status?: number; fieldErrors?: Record<string, string[]> };
  /**
   * The reason in words, for people reading a results file: written there by render/ (`itemNote`), never
   * read back by any code.
   */
  note?: string;
}

export interface ApplyCounts {
  applied: number;
  failed: number;
  skipped: number;
  unchanged: number;
}

export interface ApplyResult {
  items: ItemResult[];
  counts: ApplyCounts;
  /** Set when a 401/403 or a bad key ended the run early: every later request would fail the same way. */
  aborted?: string;
}

/** Options of {@link apply}. */
export interface ApplyOptions {
  /**
   * The secret values the plan does not hold: the password of a website, by normalized domain. `apply`
   * sends a password only where the plan says so (DESIGN §3: the plan itself never holds a secret).
   */
  passwordOf: (domain: string) => string | undefined;
  /** Called as a change is about to be sent (never for one skipped before it started). */
  onStart?: (change: Change) => void;
  /** Called once per finished change, for progress output. */
  onItem?: (result: ItemResult, done: number, total: number) => void;
  /** Once aborted (SIGINT, SIGTERM), changes not yet started are skipped as "not started"; started ones finish. */
  stop?: AbortSignal;
}
