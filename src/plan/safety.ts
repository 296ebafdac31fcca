/**
 * The safety rails that refuse a whole plan (DESIGN §3, exit 4). Each has its own, specific override; there
 * is no global force. The third rail, a live listing that failed its integrity checks, never reaches `plan`:
 * the client throws instead (DESIGN §5). Data only: render/ words each refusal for the surface that shows it.
 */

import type { Change, Refusal } from "./types.ts";

export interface SafetyInputs {
  changes: readonly Change[];
  /** The limit in force: `--max-deletes` when given, else `policy.max_deletes`. */
  maxDeletes: number;
  prune: boolean;
  allowEmpty: boolean;
  /** Whether the config lists at least one website to keep (`state: present`). */
  keepsWebsites: boolean;
  /** The same for projects; `undefined` when projects are not managed. */
  keepsProjects: boolean | undefined;
  /** A partial plan (`--target`/`--exclude`): every count above is inside the selection. */
  partial?: boolean;
}

/** The refusals of a plan, empty when it may be applied. */
export function refusals(inputs: SafetyInputs): Refusal[] {
  const found: Refusal[] = [];
  const deletes = inputs.changes.filter((c) => c.action === "delete");
  if (deletes.length > inputs.maxDeletes) {
    const websites = deletes.filter((c) => c.kind === "website").length;
    const partial = inputs.partial ?? false;
    found.push({ code: "max-deletes", websites, projects: deletes.length - websites, limit: inputs.maxDeletes, partial });
  }
  if (inputs.prune && !inputs.allowEmpty) {
    const partial = inputs.partial ?? false;
    found.push(...emptyPrune(deletes, "website", inputs.keepsWebsites, partial));
    if (inputs.keepsProjects !== undefined) found.push(...emptyPrune(deletes, "project", inputs.keepsProjects, partial));
  }
  return found;
}

/** Prune with nothing listed to keep would wipe the account: most likely a config that lost its list. */
function emptyPrune(deletes: readonly Change[], kind: Change["kind"], keeps: boolean, partial: boolean): Refusal[] {
  const pruned = deletes.filter((c) => c.kind === kind && c.action === "delete" && c.reason === "prune").length;
  if (keeps || pruned === 0) return [];
  return [{ code: "empty-prune", kind, pruned, partial }];
}
