/**
 * The words of an item's reason (STYLE habit 16): a result carries a code and its detail, and these are
 * the only words for them, in every output (progress lines, the results table, the results file, the
 * Action's comment). Pure.
 */
import type { ItemResult } from "../apply/types.ts";
import type { Change } from "../plan/types.ts";
import { changeNeedWords } from "./secret-words.ts";

/** The item a change is about, as the notes name it: `project x`, `example.com`, `example.com (id 7)`. */
function label(change: Change): string {
  if (change.kind === "project") return `project ${change.project}`;
  return change.action === "create" ? change.domain : `${change.domain} (id ${change.id})`;
}

/** Why `item` ended as it did, in words; undefined when its status says it all (applied, failed). */
export function itemNote(item: ItemResult): string | undefined {
  const { change, detail } = item;
  switch (item.reason) {
    case "applied":
    case "failed":
      return undefined;
    case "adopted":
      return "adopted: the POST's answer was lost but the site exists";
    case "already-gone":
      return "already gone";
    case "taken":
      return detail && "takenBy" in detail && detail.takenBy === "this-account"
        ? `created in this account (id ${detail.id}) after the plan read it, by another run of sitesync or by hand: run plan again`
        : "another account on this server has this domain (domains are unique server-wide): remove it there, or from the config";
    case "incomplete": {
      const what =
        detail && "missing" in detail && detail.missing === "values" ? "adopted but its values were not set" : "not made a favorite";
      return `created (id ${item.id}) but ${what}`;
    }
    case "not-started":
      return `not started: the run was interrupted by ${detail && "signal" in detail ? detail.signal : "a stop request"}`;
    case "not-attempted":
      return `not attempted: ${detail && "cause" in detail ? detail.cause : "the run stopped early"}`;
    case "already-applied":
      return `stale: already applied: ${doneWords(change, item)}`;
    case "stale":
    case "refused":
      return savedWords(change, detail && "why" in detail ? detail.why : "not-called-for");
    case "not-reviewed":
      return notReviewedWords(change, item);
    case "needs-secret":
      return changeNeedWords(change);
  }
}

/** What shows a saved change done already. */
function doneWords(change: Change, { detail }: ItemResult): string {
  const evidence = detail && "evidence" in detail ? detail : undefined;
  if (evidence?.evidence === "exists") return `${label(change)} exists (id ${evidence.id}) with the planned values`;
  if (evidence?.evidence === "has-values" && change.kind === "website") return `${change.domain} has the planned values`;
  return `${label(change)} no longer exists`;
}

/** Why a saved change is not applied, as `apply plan.json` always said it (the result line names the id already). */
function savedWords(change: Change, why: string): string {
  switch (why) {
    case "live-changed":
      return `stale: ${change.kind === "project" ? label(change) : change.domain} changed since the plan`;
    case "different-action":
      return `stale: a fresh plan no longer calls for a ${change.action} of ${label(change)}`;
    case "different-fields":
      return `refused: a fresh plan of the current config sends other fields or values to ${label(change)}`;
    case "other-account":
      return "refused: the saved plan was made against another account";
    case "reviewed-refused":
      return "refused: the saved plan was refused by a safety rail when it was made";
    default:
      return "refused: a fresh plan of the current config does not call for it (the account already matches, or the plan file was edited)";
  }
}

/** Why a change of the fresh plan is not applied in a reviewed apply. */
function notReviewedWords(change: Change, { detail }: ItemResult): string {
  const why = detail && "why" in detail ? detail.why : "not-in-review";
  switch (why) {
    case "different-action": {
      const action = detail && "reviewedAction" in detail ? detail.reviewedAction : undefined;
      return `not applied: the reviewed plan would ${action ?? "do something else to"} ${label(change)}`;
    }
    case "live-changed":
      return `not applied: ${label(change)} changed in the account since the review`;
    case "different-fields":
      return `not applied: the reviewed plan changed other fields or values of ${label(change)}`;
    case "review-unusable":
      return "not applied: there is no usable reviewed plan";
    default:
      return "not applied: not in the reviewed plan";
  }
}
