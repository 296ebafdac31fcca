/**
 * The project half of `plan` (DESIGN §2, API-NOTES §5). A phpRank project is the host of its reports: the API
 * can list and delete projects but not create them, so a listed project is only ever kept or warned about.
 */
import { type DesiredProject, type LiveProject, projectKey } from "../model/project.ts";
import { byCodePoint } from "../model/sorted.ts";
import { type Filters, pruned, sourceOf, type Tally, warn } from "./_tally.ts";
import { projectFingerprint } from "./fingerprint.ts";

/** Plans the projects into the tally; `live` is `undefined` when they were not read. */
export function planProjects(
  desired: readonly DesiredProject[],
  live: readonly LiveProject[] | undefined,
  filters: Filters,
  tally: Tally,
): void {
  if (live === undefined) {
    const message = "The config lists projects but the live projects were not read: projects are not planned.";
    warn(tally, "projects-not-read", "projects", message);
    return;
  }
  const liveByKey = new Map([...live].sort((a, b) => byCodePoint(a.project, b.project)).map((p) => [projectKey(p.project), p]));
  const listed = new Set<string>();
  for (const d of [...desired].sort((a, b) => byCodePoint(a.project, b.project))) {
    const k = projectKey(d.project);
    if (listed.has(k)) {
      warn(tally, "duplicate-project", d.project, `Project ${d.project} is listed more than once.`, d.source);
      continue;
    }
    listed.add(k);
    planListed(d, liveByKey.get(k), filters, tally);
  }
  for (const [k, p] of liveByKey) if (!listed.has(k)) planUnlisted(p, filters, tally);
}

function planListed(d: DesiredProject, live: LiveProject | undefined, filters: Filters, tally: Tally): void {
  const ignoredBy = filters.ignore(d.project);
  if (ignoredBy !== undefined) {
    tally.left.ignored++;
    const message = `Project ${d.project} matches policy.ignore "${ignoredBy}": it is not compared, changed or deleted.`;
    warn(tally, "ignored", d.project, message, d.source);
    return;
  }
  if (d.state === "present") {
    if (live !== undefined) tally.left.unchanged++;
    else {
      const message = `Project ${d.project} does not exist, and the API cannot create projects: one appears with its first report.`;
      warn(tally, "project-missing", d.project, message, d.source);
    }
    return;
  }
  if (live === undefined) return;
  const protectedBy = filters.protect(d.project);
  if (protectedBy !== undefined) {
    tally.left.unmanaged++;
    const message = `Project ${d.project} says state: absent but matches policy.protect "${protectedBy}": not deleted.`;
    warn(tally, "protected-tombstone", d.project, message, d.source);
    return;
  }
  const fingerprint = projectFingerprint(live);
  const change = { kind: "project", action: "delete", project: live.project, reason: "tombstone", fingerprint } as const;
  tally.changes.push({ ...change, ...sourceOf(d) });
}

function planUnlisted(live: LiveProject, filters: Filters, tally: Tally): void {
  if (!pruned(live.project, filters, tally)) return;
  const fingerprint = projectFingerprint(live);
  tally.changes.push({ kind: "project", action: "delete", project: live.project, reason: "prune", fingerprint });
}
