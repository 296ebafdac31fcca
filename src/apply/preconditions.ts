/**
 * A saved plan is applied only where the account still looks as it did when the plan was made (DESIGN §3):
 * the touched items are re-read, and a change whose live item moved on is skipped and reported as stale.
 */
import type { Client } from "../api/types.ts";
import type { LiveProject } from "../model/project.ts";
import type { LiveWebsite } from "../model/website.ts";
import { projectFingerprint, websiteFingerprint } from "../plan/fingerprint.ts";
import type { Change, Plan } from "../plan/types.ts";
import type { ItemResult } from "./types.ts";

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
  const byId = new Map(websites.map((w) => [w.id, w]));
  const byDomain = new Map(websites.map((w) => [w.domain, w]));
  const byName = new Map(projects.map((p) => [p.project, p]));

  const keep: Change[] = [];
  const stale: ItemResult[] = [];
  for (const change of plan.changes) {
    const reason = staleReason(change, byId, byDomain, byName);
    if (reason) stale.push({ change, status: "skipped", note: `stale: ${reason}` });
    else keep.push(change);
  }
  return { plan: { ...plan, changes: keep }, stale };
}

function staleReason(
  change: Change,
  byId: Map<number, LiveWebsite>,
  byDomain: Map<string, LiveWebsite>,
  byName: Map<string, LiveProject>,
): string | undefined {
  if (change.kind === "project") {
    const live = byName.get(change.project);
    if (!live) return `project ${change.project} no longer exists`;
    return projectFingerprint(live) === change.fingerprint ? undefined : `project ${change.project} changed since the plan`;
  }
  if (change.action === "create") {
    return byDomain.has(change.domain) ? `${change.domain} was created by someone else since the plan` : undefined;
  }
  const live = byId.get(change.id);
  if (!live) return `${change.domain} (id ${change.id}) no longer exists`;
  return websiteFingerprint(live) === change.fingerprint ? undefined : `${change.domain} changed since the plan`;
}
