/**
 * Every presentation (DESIGN §1, §9): a Plan as text, JSON or Markdown, an Outcome as the sections every
 * adapter shows, apply's progress lines, the one-line label of a change and the one Markdown escaper. Each
 * is a pure function of plan, apply or run data; the words are chosen here and nowhere else.
 */
import type { Plan } from "../plan/types.ts";
import type { AccountRun, Outcome } from "../run/types.ts";
import { errorLines } from "./error-text.ts";
import { accountsSections } from "./outcome-accounts.ts";
import { accountMarkdown, type MarkdownContext, outcomeErrorMarkdown } from "./outcome-markdown.ts";
import { accountText, type TextContext, validSummary } from "./outcome-text.ts";
import { renderJson } from "./plan-json.ts";
import { renderMarkdown } from "./plan-markdown.ts";
import { renderText } from "./plan-text.ts";
import type { Surface } from "./refusal-words.ts";
import type { Sections } from "./sections.ts";
import { matrixUnknownNote } from "./since-words.ts";

export type RenderFormat = "text" | "json" | "markdown";

/** Options of {@link render}; the JSON rendering ignores them. */
export interface RenderOptions {
  /** ANSI colors; text only (never in Markdown or JSON). */
  color?: boolean;
  /** Text only: config positions and fingerprints beside each change. */
  verbose?: boolean;
  /** Who reads it: a CLI user (the flags name each override, the default) or a workflow author (the Action's inputs). */
  surface?: Surface;
}

/** Renders a plan as `text` (terminal), `json` (saved plans, machines) or `markdown` (PR comments, job summaries). */
export function render(plan: Plan, format: RenderFormat, options: RenderOptions = {}): string {
  switch (format) {
    case "text":
      return renderText(plan, options);
    case "json":
      return renderJson(plan);
    case "markdown":
      return renderMarkdown(plan, options.surface);
  }
}

/** Where an Outcome is shown: a terminal or a log (the CLI), or GitHub (the Action's summary and comment). */
export type OutcomeTarget = ({ for: "terminal" } & TextContext) | ({ for: "github" } & MarkdownContext);

/**
 * The one renderer of an Outcome: the same sections (summary, details, notes, failure) for every adapter,
 * each account's under its heading when the config names its accounts.
 */
export function renderOutcome(outcome: Outcome, target: OutcomeTarget): Sections {
  if (outcome.error !== undefined) return errorSections(outcome, target);
  if (outcome.command === "validate") return { summary: target.for === "terminal" ? validSummary(outcome, target) : "", notes: [] };
  if (outcome.command === "matrix") return matrixSections(outcome);
  const named = outcome.accounts.some((run) => run.name !== "");
  if (target.for === "terminal" && target.format === "json" && named) return { summary: accountsJson(outcome, target.json), notes: [] };
  const sections = outcome.accounts.map((run) => ({ run, sections: renderAccount(run, outcome, target) }));
  return accountsSections(sections, target.for === "terminal" && target.format !== "markdown" ? "text" : "markdown");
}

/** One account's sections (the Action's comment has a section per account). */
export function renderAccount(run: AccountRun, outcome: Outcome, target: OutcomeTarget): Sections {
  return target.for === "terminal" ? accountText(run, outcome, target) : accountMarkdown(run, outcome, target);
}

function errorSections(outcome: Outcome, target: OutcomeTarget): Sections {
  if (target.for === "github") return outcomeErrorMarkdown(outcome, target);
  return { summary: "", notes: errorLines(outcome.error) };
}

/** `sitesync matrix`: the legs as JSON on stdout; why every account is listed, when the change is unknown. */
function matrixSections({ matrix }: Outcome): Sections {
  if (!matrix) return { summary: "", notes: [] };
  const notes = matrix.unknownChange && matrix.ref !== undefined ? [matrixUnknownNote(matrix.ref, matrix.unknownChange)] : [];
  return { summary: JSON.stringify({ include: matrix.include }), notes };
}

/**
 * `--format json` of a config with `accounts:`: one document holding each account's plan (and results) under
 * its name (without `accounts:`, the plan or the results alone, as the account's own sections give them).
 */
function accountsJson(outcome: Outcome, json: (value: unknown) => string): string {
  const accounts = outcome.accounts.map((run) => ({
    account: run.name,
    exitCode: run.exitCode,
    ...(run.plan ? { plan: run.plan } : {}),
    ...(run.results ? { results: run.results } : {}),
    ...(run.error !== undefined ? { error: run.error instanceof Error ? run.error.message : String(run.error) } : {}),
  }));
  return `${json({ format: "sitesync-accounts", version: 1, accounts })}\n`;
}

export { adoptMarkdown } from "./adopt-markdown.ts";
export { checkAnnotationsCutNote, checkRunName, checkRunTitle } from "./check-words.ts";
export {
  adoptClosedComment,
  adoptCommitMessage,
  adoptPullTitle,
  driftClosedComment,
  driftIssueIntro,
  driftIssueTitle,
} from "./drift-words.ts";
export { errorLines } from "./error-text.ts";
export {
  accountEndEvents,
  applyEndEvent,
  applyStartEvent,
  errorEvents,
  loadEvents,
  outcomeEvent,
  planEvents,
  planStartedEvent,
  readProgressEvent,
  serverWaitEvent,
  type UiEvent,
  versionEvent,
} from "./events.ts";
export { itemNote } from "./item-note.ts";
export { errorMarkdown, offlineLogLine, offlineMarkdown } from "./outcome-markdown.ts";
export { configChangedNote } from "./outcome-text.ts";
export { rateWaitLine, readStatus, rereadLine } from "./progress-words.ts";
export { itemLine } from "./results-text.ts";
export { missingReviewWords } from "./review-words.ts";
export type { OfflineReason, Sections } from "./sections.ts";
export { settingProblemLine } from "./setting-words.ts";
export { learnedRateLine, waitLine } from "./wait-line.ts";
