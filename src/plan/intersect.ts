/**
 * The merge applies what was reviewed, and nothing else (DESIGN §3, §7): the intersection of a
 * reviewed plan and a fresh plan of the same config against the account as it is now. The same check stops
 * a forged saved plan: see `confirmSavedPlan`.
 *
 * Pure: no I/O, no clock; the result depends only on the two plans.
 */

import { estimate, rateOf } from "./estimate.ts";
import { canonicalJson, sealPlan } from "./fingerprint.ts";
import { type TargetMismatch, targetMismatch } from "./target.ts";
import type { Change, FieldChange, Plan, Refusal } from "./types.ts";

/**
 * Why a change of the fresh plan is not applied:
 * - `not-in-review`: the reviewed plan holds no change for this website or project (another pull request
 *   merged in between, an edit in the web UI, or a partial review that did not select it);
 * - `different-action`: the reviewed plan did something else to it (say, an update where a delete is now due);
 * - `live-changed`: the live item moved since the review (its fingerprint or id differs);
 * - `different-fields`: the same item, but other fields or values (the config changed since the review);
 * - `review-unusable`: the reviewed plan as a whole approves nothing (see `ReviewProblem`).
 */
export type NotReviewedReason = "not-in-review" | "different-action" | "live-changed" | "different-fields" | "review-unusable";

export interface NotReviewed {
  /** The change the fresh plan calls for, which is not applied. */
  change: Change;
  reason: NotReviewedReason;
  /** The reviewed change for the same website or project, when there was one (it is not applied either). */
  reviewed?: Change;
}

/** Why a reviewed plan approves nothing at all: a safety rail refused it when it was shown, or it was made against another account. */
export type ReviewProblem = { code: "reviewed-refused"; refusals: Refusal[] } | ({ code: "other-account" } & TargetMismatch);

export interface Intersection {
  /**
   * The fresh plan with only the changes that were reviewed, identical in both: `apply` executes it as it
   * is. Its summary, estimate and hash describe those changes; its refusals are the fresh plan's (a safety
   * rail that refuses the plan of today's config refuses the run, reviewed or not).
   */
  plan: Plan;
  /** Changes of the fresh plan that are not applied, in apply order. */
  notReviewed: NotReviewed[];
  /**
   * Reviewed changes the fresh plan no longer calls for at all: the account already matches (someone made
   * the change), or the config changed since (`configChanged`). Not a failure.
   */
  noLongerNeeded: Change[];
  /** The config file's bytes differ from those the reviewed plan was made from. */
  configChanged: boolean;
  /** Set when the reviewed plan approves nothing; then `plan` holds no change. */
  problem?: ReviewProblem;
}

/**
 * Splits the fresh plan into the changes to apply and the rest. A change is applied only when the reviewed
 * plan holds the identical change: same kind, action and target (domain or project name), same id, same
 * fields (field, before, after, and the write-only / sensitive flags: a password is compared as the plan
 * holds it, `(sensitive)`), and for updates and deletes the same fingerprint, so the live item has not
 * moved since the review. A delete's `reason` (tombstone or prune) and a change's config position do not
 * count: they say why and where, not what is done.
 *
 * Both plans must be valid plans (schema and hash checked by whoever read them).
 */
export function intersectReviewed(reviewed: Plan, fresh: Plan): Intersection {
  const configChanged = reviewed.configDigest !== fresh.configDigest;
  const problem = reviewProblem(reviewed, fresh);
  if (problem) {
    const notReviewed = fresh.changes.map((change) => ({ change, reason: "review-unusable" as const }));
    return { plan: restrict(fresh, []), notReviewed, noLongerNeeded: [], configChanged, problem };
  }
  const pending = groupByTarget(reviewed.changes);
  const applied: Change[] = [];
  const notReviewed: NotReviewed[] = [];
  for (const change of fresh.changes) {
    const candidates = pending.get(targetKey(change)) ?? [];
    const same = candidates.findIndex((r) => difference(r, change) === undefined);
    if (same >= 0) {
      candidates.splice(same, 1);
      applied.push(change);
      continue;
    }
    const counterpart = candidates.shift();
    notReviewed.push(
      counterpart ? { change, reason: difference(counterpart, change)!, reviewed: counterpart } : { change, reason: "not-in-review" },
    );
  }
  const noLongerNeeded = reviewed.changes.filter((r) => pending.get(targetKey(r))?.includes(r));
  return { plan: restrict(fresh, applied), notReviewed, noLongerNeeded, configChanged };
}

/** The same changes under the same key: one website (by domain) or one project (by name). */
function targetKey(change: Change): string {
  return change.kind === "website" ? `website ${change.domain}` : `project ${change.project}`;
}

function groupByTarget(changes: readonly Change[]): Map<string, Change[]> {
  const groups = new Map<string, Change[]>();
  for (const change of changes) {
    const key = targetKey(change);
    groups.set(key, [...(groups.get(key) ?? []), change]);
  }
  return groups;
}

/** How a fresh change differs from the reviewed one for the same target; `undefined` when identical. */
function difference(reviewed: Change, fresh: Change): NotReviewedReason | undefined {
  if (reviewed.kind !== fresh.kind || reviewed.action !== fresh.action) return "different-action";
  if (liveIdentity(reviewed) !== liveIdentity(fresh)) return "live-changed";
  return canonicalJson(sent(reviewed)) === canonicalJson(sent(fresh)) ? undefined : "different-fields";
}

/** What identifies the live item a change was computed from: a create has none (the item does not exist). */
function liveIdentity(change: Change): string {
  if (change.action === "create") return "";
  return change.kind === "website" ? `${change.id} ${change.fingerprint}` : change.fingerprint;
}

/**
 * What a change sends: its fields in field order (creates also how many requests: POST, then PUT). Whether
 * a send is a re-send says why, not what: a review made before the apply confirms the same send after it.
 */
function sent(change: Change): { fields: FieldChange[]; requests?: number } {
  if (change.action === "delete") return { fields: [] };
  const fields = [...change.fields].map(withoutResend).sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
  return change.action === "create" ? { fields, requests: change.requests } : { fields };
}

function withoutResend(field: FieldChange): FieldChange {
  if (field.changedSince?.resend === undefined) return field;
  const { resend: _why, ...changedSince } = field.changedSince;
  return { ...field, changedSince };
}

function reviewProblem(reviewed: Plan, fresh: Plan): ReviewProblem | undefined {
  if (reviewed.refusals.length > 0) return { code: "reviewed-refused", refusals: reviewed.refusals };
  const mismatch = targetMismatch(reviewed.target, fresh.target);
  return mismatch ? { code: "other-account", ...mismatch } : undefined;
}

/** `fresh` with only `changes` (a subsequence of its changes, in its order), its counts and hash to match. */
function restrict(fresh: Plan, changes: Change[]): Plan {
  const count = (action: Change["action"]) => changes.filter((c) => c.action === action).length;
  const { hash: _fresh, ...rest } = fresh;
  return sealPlan({
    ...rest,
    changes,
    summary: { ...fresh.summary, create: count("create"), update: count("update"), delete: count("delete") },
    // The same run as the fresh plan's, with fewer writes: its reads, at the rate it knew (DESIGN §5).
    estimate: estimate(changes, rateOf(fresh.estimate), fresh.estimate.reads ?? 0),
  });
}

/**
 * Why a saved change is not applied: its live item moved (`live-changed`), a fresh plan does something else
 * to it (`different-action`) or sends other fields (`different-fields`), does not call for it at all
 * (`not-called-for`: done already, or forged), or the saved plan as a whole approves nothing (its problem).
 */
export type SavedRefusal = "live-changed" | "different-action" | "different-fields" | "not-called-for" | ReviewProblem["code"];

/** A saved plan checked against a fresh plan (`apply plan.json`). */
export interface SavedPlanCheck {
  /** The saved changes that a fresh plan calls for, identically: the plan to apply. */
  plan: Plan;
  /** Saved changes that are not applied, and why (exit 4, like a stale plan). */
  refused: { change: Change; why: SavedRefusal }[];
  /** Differences the fresh plan finds that the saved plan does not hold: not applied; plan again to review them. */
  notInSavedPlan: Change[];
  /** Saved changes the fresh plan no longer calls for (among `refused`): done already, or forged. */
  noLongerNeeded: Change[];
}

/**
 * `apply plan.json`: each saved change is applied only when a fresh plan of the current config against the
 * current account calls for the identical change (DESIGN §3).
 *
 * The plan's hash detects accidents (a truncated or hand-edited file); it is no defence against a forger,
 * who can recompute it. This check is what stops a forged file: whatever a saved plan says, sitesync only
 * ever applies changes the config itself calls for, so no edited file can add a delete, an update or a
 * create the config does not ask for. It also subsumes the stale check: a change whose live item moved has
 * another fingerprint in the fresh plan.
 *
 * Plan the fresh plan with the saved plan's settings (`--sync-write-only` shows in its fields as
 * `sentBecause: "sync-write-only"`), else its write-only fields differ and are refused.
 */
export function confirmSavedPlan(saved: Plan, fresh: Plan): SavedPlanCheck {
  const x = intersectReviewed(saved, fresh);
  const refused: SavedPlanCheck["refused"] = [];
  for (const entry of x.notReviewed) {
    if (entry.reviewed) {
      const why = entry.reason === "live-changed" || entry.reason === "different-action" ? entry.reason : "different-fields";
      refused.push({ change: entry.reviewed, why });
    }
  }
  for (const change of x.noLongerNeeded) refused.push({ change, why: "not-called-for" });
  if (x.problem) for (const change of saved.changes) refused.push({ change, why: x.problem.code });
  const notInSavedPlan = x.notReviewed.filter((e) => e.reason === "not-in-review").map((e) => e.change);
  return { plan: x.plan, refused, notInSavedPlan, noLongerNeeded: x.noLongerNeeded };
}
