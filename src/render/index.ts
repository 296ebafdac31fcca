/**
 * Every presentation (DESIGN §1, §9): a Plan as text, JSON or Markdown, an Outcome as the sections every
 * adapter shows, apply's progress lines, the one-line label of a change and the one Markdown escaper. Each
 * is a pure function of plan, apply or run data; the words are chosen here and nowhere else.
 */
import type { Plan } from "../plan/types.ts";
import type { Outcome } from "../run/types.ts";
import { accountsSections } from "./outcome-accounts.ts";
import { type MarkdownContext, outcomeMarkdown } from "./outcome-markdown.ts";
import { outcomeText, type TextContext } from "./outcome-text.ts";
import { renderJson } from "./plan-json.ts";
import { renderMarkdown } from "./plan-markdown.ts";
import { renderText } from "./plan-text.ts";
import type { Sections } from "./sections.ts";

export type RenderFormat = "text" | "json" | "markdown";

/** Options of {@link render}; the JSON and Markdown renderings ignore them. */
export interface RenderOptions {
  /** ANSI colors; text only (never in Markdown or JSON). */
  color?: boolean;
  /** Text only: config positions and fingerprints beside each change. */
  verbose?: boolean;
}

/** Renders a plan as `text` (terminal), `json` (saved plans, machines) or `markdown` (PR comments, job summaries). */
export function render(plan: Plan, format: RenderFormat, options: RenderOptions = {}): string {
  switch (format) {
    case "text":
      return renderText(plan, options);
    case "json":
      return renderJson(plan);
    case "markdown":
      return renderMarkdown(plan);
  }
}

/** Where an Outcome is shown: a terminal or a log (the CLI), or GitHub (the Action's summary and comment). */
export type OutcomeTarget = ({ for: "terminal" } & TextContext) | ({ for: "github" } & MarkdownContext);

/** The one renderer of an Outcome: the same sections (summary, details, notes, failure) for every adapter. */
export function renderOutcome(outcome: Outcome, target: OutcomeTarget): Sections {
  if (outcome.accounts && outcome.error === undefined) {
    if (target.for === "terminal" && target.format === "json") return { summary: accountsJson(outcome, target.json), notes: [] };
    const format = target.for === "terminal" && target.format === "text" ? "text" : "markdown";
    return accountsSections(outcome.accounts, format, (one) => renderOutcome(one, target));
  }
  return target.for === "terminal" ? outcomeText(outcome, target) : outcomeMarkdown(outcome, target);
}

/** `--format json` over many accounts: one document, each account's plan (and results) under its name. */
function accountsJson(outcome: Outcome, json: (value: unknown) => string): string {
  const accounts = (outcome.accounts ?? []).map(({ name, outcome: one }) => ({
    account: name,
    exitCode: one.exitCode,
    ...(one.plan ? { plan: one.plan } : {}),
    ...(one.results ? { results: one.results } : {}),
    ...(one.error !== undefined ? { error: one.error instanceof Error ? one.error.message : String(one.error) } : {}),
  }));
  return `${json({ format: "sitesync-accounts", version: 1, accounts })}\n`;
}

export { errorLines } from "./error-text.ts";
export { itemNote } from "./item-note.ts";
export { errorMarkdown, offlineLogLine, offlineMarkdown } from "./outcome-markdown.ts";
export { configChangedNote } from "./outcome-text.ts";
export { rateWaitLine, readStatus, rereadLine } from "./progress-words.ts";
export { itemLine } from "./results-text.ts";
export { missingReviewWords } from "./review-words.ts";
export type { OfflineReason, ReviewStatus, Sections } from "./sections.ts";
export { settingProblemLine } from "./setting-words.ts";
export { matrixUnknownNote } from "./since-words.ts";
export { learnedRateLine, waitLine } from "./wait-line.ts";
