/**
 * The words of a check run (DESIGN §7, "Check runs"): its name, one per account, and the one-line title its
 * output leads with. Pure.
 */
import { plural } from "../model/plural.ts";
import type { AccountRun } from "../run/types.ts";

/** `sitesync plan`, `sitesync plan (eu)`: one check run per account of a config. */
export function checkRunName(command: string, account: string): string {
  return `sitesync ${command}${account === "" ? "" : ` (${account})`}`;
}

/** What an account's run came to, in a few words: no changes, the changes planned, what apply did, or that it failed. */
export function checkRunTitle(run: AccountRun | undefined): string {
  if (run === undefined || run.error !== undefined) return "Failed: see the summary";
  const plan = run.plan;
  if (plan && plan.refusals.length > 0) return `Refused: ${plan.refusals.map((r) => r.code).join(", ")}`;
  if (run.results) {
    const { applied, failed, skipped } = run.results.counts;
    return failed + skipped === 0 ? `Applied ${plural(applied, "change")}` : `${applied} applied, ${failed} failed, ${skipped} not applied`;
  }
  if (!plan || plan.changes.length === 0) return "No changes";
  const { create, update, delete: deletes } = plan.summary;
  return `${plural(plan.changes.length, "change")}: ${create} to create, ${update} to update, ${deletes} to delete`;
}

/** The annotations a check run leaves out past its bound. */
export function checkAnnotationsCutNote(shown: number, total: number): string {
  return `> [!NOTE]\n> The first ${shown} of ${total} changes are annotated on the config's lines; the summary lists them all.`;
}
