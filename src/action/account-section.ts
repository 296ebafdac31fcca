/**
 * An account's section of a comment, within its account's share of the comment (comment-sections.ts), and
 * the reviewed-plan block every plan comment carries (DESIGN §7). Pure.
 */
import { section, sectionBudget, sectionIdentity } from "./comment-sections.ts";
import { commentBody, size } from "./compose.ts";
import { REVIEWED_BLOCK_BUDGET } from "./reviewed-block.ts";
import { carryReviewedPlan } from "./reviewed-comment.ts";
import type { AccountReport, Report, RunContext } from "./run-context.ts";
import { shortenSection } from "./shorten-section.ts";

/** Room kept in a section beside its summary for the heading, the footer and the cut note. */
const SECTION_ROOM = 1_000;

/** Where a section goes: its comment's marker, the commit its plan was made for, the accounts sharing the comment. */
export interface SectionPlace {
  marker: string;
  headSha: string | undefined;
  /** The accounts of the config: the comment is shared among them alike, whichever leg writes. */
  fleet: readonly string[];
  /** A plan comment carries each account's reviewed plan. */
  reviewed: boolean;
}

/**
 * The section of `own.account`, within its share of the comment: the summary first, then the reviewed plan
 * whole (or why it could not be carried), then as much of the details as fits, with a note pointing to the job summary.
 */
export function accountSection(ctx: RunContext, own: AccountReport, place: SectionPlace): string {
  const { account } = own;
  const budget = sectionBudget(place.marker, place.fleet.length);
  const room = budget - size(section(account, ""));
  // Redacted before it is cut: a cut can never leave part of a secret that the redactor would then miss.
  const redacted = redactReport(own.report, (text) => ctx.redactor.redact(text));
  const identity = account === "" ? ctx.configLabel : sectionIdentity(ctx.configLabel, account);
  const blockBudget = Math.min(REVIEWED_BLOCK_BUDGET, Math.max(0, room - size(redacted.summary) - SECTION_ROOM));
  const plan = place.reviewed ? own.plan : undefined;
  const { report, block } = withReviewedBlock(ctx, redacted, plan, { headSha: place.headSha, config: identity }, blockBudget);
  const parts = { marker: account === "" ? "" : `## Account ${account}`, headSha: place.headSha, runUrl: ctx.event.runUrl, account };
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

/** The hidden reviewed-plan block for a plan comment; only the plan of a plan run carries one. */
function withReviewedBlock(
  ctx: RunContext,
  report: Report,
  plan: AccountReport["plan"],
  made: { headSha: string | undefined; config: string },
  budget: number,
): { report: Report; block: string } {
  if (!plan) return { report, block: "" };
  return carryReviewedPlan(report, plan, made, (text) => ctx.redactor.redact(text), budget);
}
