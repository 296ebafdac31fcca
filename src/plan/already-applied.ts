/**
 * Whether a saved change is done already, judged by the account as it is now (DESIGN §3): a saved plan is
 * confirmed against a fresh plan (`confirmSavedPlan`), and a saved change the fresh plan no longer calls for
 * is told apart here as already applied (the same plan applied twice) rather than refused. Pure.
 */
import type { LiveProject } from "../model/project.ts";
import type { Live } from "../model/state.ts";
import type { LiveWebsite } from "../model/website.ts";
import { websiteFingerprint } from "./fingerprint.ts";
import type { Change, FieldChange } from "./types.ts";

/** What the account shows for a saved change that is done already. */
export type AlreadyAppliedEvidence =
  /** The created website exists with the planned values. */
  | { evidence: "exists"; id: number }
  /** The updated website has the planned values. */
  | { evidence: "has-values" }
  /** The deleted website or project no longer exists. */
  | { evidence: "gone" };

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
 * What shows each saved change a fresh plan no longer calls for done already, judged by the account as it
 * is now; a change the account does not show done (a forged or outdated one) is not in the map.
 */
export function alreadyApplied(changes: readonly Change[], live: Live): Map<Change, AlreadyAppliedEvidence> {
  const index = indexLive(live);
  const done = new Map<Change, AlreadyAppliedEvidence>();
  for (const change of changes) {
    const evidence = doneEvidence(change, index);
    if (evidence) done.set(change, evidence);
  }
  return done;
}

/** Whether every readable planned value is live already (write-only ones cannot be checked: DESIGN §3). */
function hasPlannedValues(live: LiveWebsite, fields: readonly FieldChange[]): boolean {
  const canonical = (value: unknown) => JSON.stringify(Array.isArray(value) ? [...new Set(value)].sort() : (value ?? null));
  return fields.every((f) => f.writeOnly || canonical(live[f.field as keyof LiveWebsite]) === canonical(f.after));
}

/** What shows `change` done in the account, or undefined when nothing does (the project and deletes: gone). */
function doneEvidence(change: Change, { byId, byDomain, byName }: LiveIndex): AlreadyAppliedEvidence | undefined {
  if (change.kind === "project") return byName.has(change.project) ? undefined : { evidence: "gone" };
  if (change.action === "create") {
    const live = byDomain.get(change.domain);
    // Applying the same saved plan twice finds its own work: say so, rather than blame someone else.
    return live && hasPlannedValues(live, change.fields) ? { evidence: "exists", id: live.id } : undefined;
  }
  const live = byId.get(change.id);
  if (change.action === "delete") return live ? undefined : { evidence: "gone" };
  // An unmoved site was not updated: its fields still say "before", whatever write-only fields would claim.
  const moved = live !== undefined && websiteFingerprint(live) !== change.fingerprint;
  return moved && hasPlannedValues(live, change.fields) ? { evidence: "has-values" } : undefined;
}
