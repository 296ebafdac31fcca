/**
 * A fleet leg's section of the plan comment (issue 19 item 5), within its account's share of the comment
 * (comment-sections.ts), and the reviewed-plan block every plan comment carries (issue 13). Pure.
 */
import { section, sectionBudget, sectionIdentity } from "./comment-sections.ts";
import { commentBody, markerFor, size } from "./compose.ts";
import { carryReviewedPlan } from "./reviewed-comment.ts";
import type { ActionReport, Report, RunContext } from "./run-context.ts";
import { shortenSection } from "./shorten-section.ts";

/** Room kept in a section beside its summary for the heading, the footer and the cut note. */
const SECTION_ROOM = 1_000;

/**
 * The section of `account`, within its share of the comment: the summary first, then the reviewed plan whole
 * (or why it could not be carried), then as much of the details as fits, with a note pointing to this leg's job summary.
 */
export function accountSection(ctx: RunContext, outcome: ActionReport, account: string, headSha: string | undefined): string {
  const budget = sectionBudget(markerFor(ctx.configLabel), outcome.accounts?.length ?? 1);
  const room = budget - size(section(account, ""));
  // Redacted before it is cut: a cut can never leave part of a secret that the redactor would then miss.
  const redacted = redactReport(outcome.report, (text) => ctx.redactor.redact(text));
  const identity = sectionIdentity(ctx.configLabel, account);
  const blockBudget = Math.max(0, room - size(redacted.summary) - SECTION_ROOM);
  const { report, block } = withReviewedBlock(ctx, { ...outcome, report: redacted }, headSha, identity, blockBudget);
  const parts = { marker: `## Account ${account}`, headSha, runUrl: ctx.event.runUrl, account };
  // A share too small for the summary beside the room compose keeps for its note (a fleet of dozens): the
  // section is cut like any other (its first lines kept), so that no leg's own section is over its share,
  // which the other legs would cut and this leg would write again.
  const small = room - size(block) < size(report.summary) + SECTION_ROOM;
  const visible = small ? commentBody(report, parts) : commentBody(report, parts, room - size(block));
  const text = section(account, ctx.redactor.redact(visible) + block);
  return shortenSection(text, budget) ?? text;
}

/** Every text of `report` through `redact`. */
function redactReport(report: Report, redact: (text: string) => string): Report {
  const details = report.details ? { details: { title: redact(report.details.title), body: redact(report.details.body) } } : {};
  return { ...report, summary: redact(report.summary), ...details };
}

/** The hidden reviewed-plan block for a plan run's comment (issue 13); only a plan run of a pull request carries one. */
export function withReviewedBlock(
  ctx: RunContext,
  outcome: ActionReport,
  headSha: string | undefined,
  config = ctx.configLabel,
  budget?: number,
): { report: Report; block: string } {
  const { report, plan } = outcome;
  if (!plan || ctx.inputs.command !== "plan") return { report, block: "" };
  return carryReviewedPlan(report, plan, { headSha, config }, (text) => ctx.redactor.redact(text), budget);
}
