/**
 * A saved plan is applied only where the account still looks as it did when the plan was made (DESIGN §3):
 * the touched items are re-read, and a change whose live item moved on is skipped and reported as stale.
 */
import type { Client } from "../api/types.ts";
import type { LiveProject } from "../model/project.ts";
import type { Live } from "../model/state.ts";
import type { LiveWebsite } from "../model/website.ts";
import { projectFingerprint, websiteFingerprint } from "../plan/fingerprint.ts";
import type { Change, FieldChange, Plan } from "../plan/types.ts";
import type { ItemResult } from "./types.ts";

/** How a stale note starts when the account shows the change done (the same plan applied twice). */
export const ALREADY_APPLIED = "already applied";

/** Whether a skipped item was skipped because its change is done already. */
export function isAlreadyApplied(item: ItemResult): boolean {
  return item.note?.startsWith(`stale: ${ALREADY_APPLIED}`) ?? false;
}

export interface Preconditions {
  /** The plan without its stale changes. */
  plan: Plan;
  /** One skipped result per stale change, saying what moved. */
  stale: ItemResult[];
}

/**
 * Re-reads what `plan` touches (one listing per service, ceil(N/100) requests, rather than a GET per item)
 * and splits its changes into those that still hold and those that are stale.
 */
export async function checkPreconditions(plan: Plan, client: Client): Promise<Preconditions> {
  const needsWebsites = plan.changes.some((c) => c.kind === "website");
  const needsProjects = plan.changes.some((c) => c.kind === "project");
  const [websites, projects] = await Promise.all([
    needsWebsites ? client.websites.readAll() : Promise.resolve([]),
    needsProjects ? client.projects.readAll() : Promise.resolve([]),
  ]);
  const index = indexLive({ websites, projects });
  const keep: Change[] = [];
  const stale: ItemResult[] = [];
  for (const change of plan.changes) {
    const reason = staleReason(change, index);
    if (reason) stale.push({ change, status: "skipped", note: `stale: ${reason}` });
    else keep.push(change);
  }
  return { plan: { ...plan, changes: keep }, stale };
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
    const reason = staleReason(change, index);
    if (reason?.startsWith(ALREADY_APPLIED)) done.set(change, reason);
  }
  return done;
}

/** Whether every readable planned value is live already (write-only ones cannot be checked: DESIGN §3). */
function hasPlannedValues(live: LiveWebsite, fields: readonly FieldChange[]): boolean {
  const canonical = (value: unknown) => JSON.stringify(Array.isArray(value) ? [...new Set(value)].sort() : (value ?? null));
  return fields.every((f) => f.writeOnly || canonical(live[f.field as keyof LiveWebsite]) === canonical(f.after));
}

function staleReason(change: Change, { byId, byDomain, byName }: LiveIndex): string | undefined {
  if (change.kind === "project") {
    const live = byName.get(change.project);
    if (!live) return `${ALREADY_APPLIED}: project ${change.project} no longer exists`;
    return projectFingerprint(live) === change.fingerprint ? undefined : `project ${change.project} changed since the plan`;
  }
  if (change.action === "create") {
    const live = byDomain.get(change.domain);
    if (!live) return undefined;
    // Applying the same saved plan twice finds its own work: say so, rather than blame someone else.
    return hasPlannedValues(live, change.fields)
      ? `${ALREADY_APPLIED}: ${change.domain} exists (id ${live.id}) with the planned values`
      : `${change.domain} was created by someone else since the plan`;
  }
  const live = byId.get(change.id);
  if (!live) {
    return change.action === "delete"
      ? `${ALREADY_APPLIED}: ${change.domain} (id ${change.id}) no longer exists`
      : `${change.domain} (id ${change.id}) no longer exists`;
  }
  if (websiteFingerprint(live) === change.fingerprint) return undefined;
  return change.action === "update" && hasPlannedValues(live, change.fields)
    ? `${ALREADY_APPLIED}: ${change.domain} has the planned values`
    : `${change.domain} changed since the plan`;
}
