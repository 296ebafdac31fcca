/**
 * The two ways a run applies only what someone saw (DESIGN §3, §7): a saved plan (`apply plan.json`) is
 * confirmed against a fresh plan, and a reviewed plan (`apply --reviewed plan.json`, the Action on merge)
 * is intersected with one. Both plan afresh from the current config against the current account; the pure
 * decisions are in plan/intersect.ts and plan/already-applied.ts.
 */
import type { Client } from "../api/types.ts";
import type { ItemResult } from "../apply/types.ts";
import type { Env } from "../config/interpolate.ts";
import type { Config } from "../config/types.ts";
import { alreadyApplied } from "../plan/already-applied.ts";
import { confirmSavedPlan, intersectReviewed, type NotReviewed, type SavedPlanCheck } from "../plan/intersect.ts";
import type { Plan } from "../plan/types.ts";
import type { PlanSettings } from "./plan-from-config.ts";
import { planFromConfig, planWithLive } from "./plan-from-config.ts";
import { baseOf } from "./read-for-change.ts";
import type { ReviewOutcome, ReviewSource } from "./types.ts";

export interface Checked {
  /** What may be applied. */
  plan: Plan;
  /** Changes that are not applied, as skipped results with their reason (exit 4). */
  skipped: ItemResult[];
}

/** Whether a plan was made with `--sync-write-only`: its fields say so, and a fresh plan must match it. */
function syncWriteOnlyOf(plan: Plan): boolean {
  return plan.changes.some((c) => c.action !== "delete" && c.fields.some((f) => f.sentBecause === "sync-write-only"));
}

/**
 * `apply plan.json`: plans again with the saved plan's planning options and applies only the saved changes
 * that the fresh plan calls for identically (`confirmSavedPlan`); the rest is skipped and reported.
 *
 * The count rails (`max_deletes`, `--allow-empty`) are lifted for the fresh plan: the saved plan passed
 * them when it was made (a refused plan is never saved nor read back), and what is applied is a subset of
 * its changes, so a fresh plan that finds more deletes (someone else's drift) must not refuse the changes
 * that were reviewed. Those extra differences are never applied here: they are `notInSavedPlan`.
 */
export async function confirmSaved(
  saved: Plan,
  config: Config,
  client: Client,
  settings: PlanSettings,
  env: Env = {},
): Promise<Checked & { notInSavedPlan: number }> {
  const changedSince = baseOf(saved.since);
  const { plan: fresh, live } = await planWithLive(
    config,
    client,
    {
      ...(settings.rateWindowMs === undefined ? {} : { rateWindowMs: settings.rateWindowMs }),
      bases: settings.bases,
      syncWriteOnly: syncWriteOnlyOf(saved),
      // A partial plan is confirmed inside the selection it recorded: outside it nothing was saved.
      ...(saved.selection ? { selection: saved.selection } : {}),
      // A plan that followed a change is confirmed over the same change, read at the commit it recorded.
      ...(changedSince ? { changedSince } : {}),
      maxDeletes: Number.MAX_SAFE_INTEGER,
      allowEmpty: true,
    },
    env,
  );
  const check = confirmSavedPlan(saved, fresh);
  // A saved change the fresh plan no longer calls for is refused, unless the account shows it done: the same
  // plan applied twice finds its own work, and says so.
  const done = alreadyApplied(check.noLongerNeeded, live);
  const skipped = check.refused.map(({ change, why }): ItemResult => {
    const evidence = done.get(change);
    if (evidence) return { change, status: "skipped", reason: "already-applied", detail: evidence };
    return { change, status: "skipped", reason: staleOrRefused(why), detail: { why } };
  });
  return { plan: check.plan, skipped, notInSavedPlan: check.notInSavedPlan.length };
}

/** A saved change whose item moved, or that a fresh plan now does otherwise, is stale; any other is refused. */
function staleOrRefused(why: SavedPlanCheck["refused"][number]["why"]): "stale" | "refused" {
  return why === "live-changed" || why === "different-action" ? "stale" : "refused";
}

/**
 * `apply --reviewed plan.json` and the Action on merge: plans again and keeps only the changes identical
 * in the reviewed plan (`intersectReviewed`). Every other change of the fresh plan is skipped with the
 * reason; without a usable review (`{ missing }`) nothing is applied and every change is reported. The
 * fresh plan keeps its own rails: a plan of today's config that a rail refuses is refused, reviewed or not.
 */
export async function intersectWithReview(
  review: ReviewSource,
  config: Config,
  client: Client,
  settings: PlanSettings,
  env: Env = {},
): Promise<Checked & { review: Omit<ReviewOutcome, "status"> }> {
  const reviewed = "missing" in review ? undefined : review;
  // A partial review is intersected inside its own selection, unless this run gives one.
  const selection = settings.selection ?? reviewed?.selection;
  // A review that followed a change is intersected with a fresh plan over the same change and scope (DESIGN §3).
  const changedSince = baseOf(reviewed?.since) ?? settings.changedSince;
  const fresh = await planFromConfig(
    config,
    client,
    {
      ...settings,
      ...(selection ? { selection } : {}),
      changedSince,
      syncWriteOnly: Boolean(settings.syncWriteOnly) || (reviewed ? syncWriteOnlyOf(reviewed) : false),
    },
    env,
  );
  if ("missing" in review) {
    // An empty review approves nothing: the fresh plan with no change (its refusals kept), all of it reported.
    const none = intersectReviewed({ ...fresh, changes: [] }, fresh);
    const skipped = fresh.changes.map((change) => notReviewed({ change, reason: "review-unusable" }));
    return {
      plan: none.plan,
      skipped,
      review: { noLongerNeeded: [], problem: { code: "missing", missing: review.missing } },
    };
  }
  const x = intersectReviewed(review, fresh);
  return {
    plan: x.plan,
    skipped: x.notReviewed.map(notReviewed),
    review: { noLongerNeeded: x.noLongerNeeded, ...(x.problem ? { problem: x.problem } : {}) },
  };
}

function notReviewed(entry: NotReviewed): ItemResult {
  const detail = { why: entry.reason, ...(entry.reviewed ? { reviewedAction: entry.reviewed.action } : {}) };
  return { change: entry.change, status: "skipped", reason: "not-reviewed", detail };
}
