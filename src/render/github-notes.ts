/**
 * The notes the Action adds around the rendered sections on GitHub: where a cut plan is whole, the comment's
 * footer, and why a plan comment carries no reviewed plan. Pure; Markdown.
 */

/** Where the whole plan is when a comment or a job summary shows only its first lines. */
export type CutPlace = { in: "comment"; runUrl?: string | undefined } | { in: "summary"; planFile?: string | undefined };

export function cutNote(place: CutPlace, shown: number, total: number): string {
  if (place.in === "comment") {
    const where = place.runUrl ? `the job summary of [the workflow run](${place.runUrl})` : "the job summary of the workflow run";
    return `The plan is too long for a comment: ${shown} of its ${total} lines are shown. The whole plan is in ${where}.`;
  }
  const where = place.planFile ? `in the plan file \`${place.planFile}\` (output \`plan-file\`)` : "in the step's log";
  return `The plan is too long for the job summary: ${shown} of its ${total} lines are shown. The whole plan is ${where}.`;
}

/** The comment's last line: the commit the plan was made for and the workflow run, when known. */
export function commentFooter(headSha: string | undefined, runUrl: string | undefined): string | undefined {
  const parts = [...(headSha ? [`for commit ${headSha.slice(0, 7)}`] : []), ...(runUrl ? [`[workflow run](${runUrl})`] : [])];
  return parts.length > 0 ? `<sub>sitesync · ${parts.join(" · ")}</sub>` : undefined;
}

/** A plan comment that cannot carry its reviewed plan says so: the merge will apply nothing of it. */
export function unreviewableNote(tooLarge: boolean, why: string): string {
  const what = tooLarge ? "The reviewed plan is too large to carry" : "The reviewed plan cannot be carried in this comment";
  return `> [!WARNING]\n> ${what}: the merge will apply nothing unless run with apply-unreviewed. ${why}`;
}
