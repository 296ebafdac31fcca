/**
 * Whether a saved change is done already, judged by the account as it is now (DESIGN §3): a saved plan is
 * confirmed against a fresh plan (`confirmSavedPlan`), and a saved change the fresh plan no longer calls for
 * is told apart here as `already applied` (the same plan applied twice) rather than refused.
 */
import type { LiveProject } from "../model/project.ts";
import type { Live } from "../model/state.ts";
import type { LiveWebsite } from "../model/website.ts";
import { websiteFingerprint } from "../plan/fingerprint.ts";
import type { Change, FieldChange } from "../plan/types.ts";
import type { ItemResult } from "./types.ts";

/** How a stale note starts when the account shows the change done (the same plan applied twice). */
export const ALREADY_APPLIED = "already applied";

/** Whether a skipped item was skipped because its change is done already. */
export function isAlreadyApplied(item: ItemResult): boolean {
  return item.note?.startsWith(`stale: ${ALREADY_APPLIED}`) ?? false;
}

interface LiveIndex {
  byId: Map<number, LiveWebsite>;
  byDomain: Map<string, LiveWebsite>;
  byName: Map<string, LiveProject>;
}

function indexLive(live: Live): LiveIndex {
  return {
    byId: new Map(live.websites.map((w) => [w.id, w])),
    byDomain: new Map(live.websites.map((w) => [w.domain, w])),
    byName: new Map((live.projects ?? []).map((p) => [p.project, p])),
  };
}

/**
 * Why a saved change a fresh plan no longer calls for is done already, judged by the account as it is now
 * (`${ALREADY_APPLIED}: …`), or undefined when the account does not show it done (a forged or outdated change).
 */
export function alreadyApplied(changes: readonly Change[], live: Live): Map<Change, string> {
  const index = indexLive(live);
  const done = new Map<Change, string>();
  for (const change of changes) {
    const reason = doneReason(change, index);
    if (reason) done.set(change, `${ALREADY_APPLIED}: ${reason}`);
  }
  return done;
}

/** Whether every readable planned value is live already (write-only ones cannot be checked: DESIGN §3). */
function hasPlannedValues(live: LiveWebsite, fields: readonly FieldChange[]): boolean {
  const canonical = (value: unknown) => JSON.stringify(Array.isArray(value) ? [...new Set(value)].sort() : (value ?? null));
  return fields.every((f) => f.writeOnly || canonical(live[f.field as keyof LiveWebsite]) === canonical(f.after));
}

/** What shows `change` done in the account, or undefined when nothing does (the project and deletes: gone). */
function doneReason(change: Change, { byId, byDomain, byName }: LiveIndex): string | undefined {
  if (change.kind === "project") return byName.has(change.project) ? undefined : `project ${change.project} no longer exists`;
  if (change.action === "create") {
    const live = byDomain.get(change.domain);
    // Applying the same saved plan twice finds its own work: say so, rather than blame someone else.
    return live && hasPlannedValues(live, change.fields) ? `${change.domain} exists (id ${live.id}) with the planned values` : undefined;
  }
  const live = byId.get(change.id);
  if (change.action === "delete") return live ? undefined : `${change.domain} (id ${change.id}) no longer exists`;
  // An unmoved site was not updated: its fields still say "before", whatever write-only fields would claim.
  const moved = live !== undefined && websiteFingerprint(live) !== change.fingerprint;
  return moved && hasPlannedValues(live, change.fields) ? `${change.domain} has the planned values` : undefined;
}
