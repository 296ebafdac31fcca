/**
 * The notes the Action adds around the rendered sections on GitHub: where a cut plan is whole, the comment's
 * footer, and why a plan comment carries no reviewed plan. Pure; Markdown.
 */

/** Where the whole plan is when a comment or a job summary shows only its first lines. */
export type CutPlace =
  /** `account`: a fleet leg's section, whose whole plan is in that leg's job summary. */
  | { in: "comment"; runUrl?: string | undefined; account?: string | undefined }
  | { in: "summary"; planFile?: string | undefined }
  | { in: "check"; runUrl?: string | undefined };

export function cutNote(place: CutPlace, shown: number, total: number): string {
  if (place.in === "check") {
    const run = place.runUrl ? `[the workflow run](${place.runUrl})` : "the workflow run";
    return `The plan is too long for a check run: ${shown} of its ${total} lines are shown. The whole plan is in the job summary of ${run}.`;
  }
  if (place.in === "comment") {
    const run = place.runUrl ? `[the workflow run](${place.runUrl})` : "the workflow run";
    const where = place.account ? `the job summary of the ${place.account} leg of ${run}` : `the job summary of ${run}`;
    const what = place.account ? "This account's plan is too long for its share of the comment" : "The plan is too long for a comment";
    return `${what}: ${shown} of its ${total} lines are shown. The whole plan is in ${where}.`;
  }
  const where = place.planFile ? `in the plan file \`${place.planFile}\` (output \`plan-file\`)` : "in the step's log";
  return `The plan is too long for the job summary: ${shown} of its ${total} lines are shown. The whole plan is ${where}.`;
}

/** The comment's last line: the commit the plan was made for and the workflow run, when known. */
export function commentFooter(headSha: string | undefined, runUrl: string | undefined): string | undefined {
  const parts = [...(headSha ? [`for commit ${headSha.slice(0, 7)}`] : []), ...(runUrl ? [`[workflow run](${runUrl})`] : [])];
  return parts.length > 0 ? `<sub>sitesync · ${parts.join(" · ")}</sub>` : undefined;
}

/**
 * The last lines of an account's section shortened after it was written, to make room for the other accounts'
 * sections, by what became of its reviewed plan: kept whole, dropped to make room (the merge then applies
 * nothing of it), or never carried because it was too large.
 */
export function shortenedSectionNote(reviewed: "kept" | "dropped" | "too-large"): string {
  const note = `> [!NOTE]\n> This account's section was shortened to fit the comment beside the other accounts' sections. The whole plan is in the job summary of this account's leg of the workflow run.`;
  const why = {
    kept: undefined,
    dropped:
      "Its reviewed plan no longer fits: the merge will apply nothing of it unless run with apply-unreviewed. Run the workflow again to write the section within its share.",
    "too-large":
      "Its plan is too large to carry for review: the merge will apply nothing of it unless run with apply-unreviewed. Split the change into smaller pull requests.",
  }[reviewed];
  return why ? `${note}\n\n> [!WARNING]\n> ${why}` : note;
}

/** A plan comment that cannot carry its reviewed plan says so: the merge will apply nothing of it. */
export function unreviewableNote(tooLarge: boolean, why: string): string {
  const what = tooLarge ? "The reviewed plan is too large to carry" : "The reviewed plan cannot be carried in this comment";
  return `> [!WARNING]\n> ${what}: the merge will apply nothing unless run with apply-unreviewed. ${why}`;
}
