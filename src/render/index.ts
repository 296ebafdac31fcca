/**
 * Every presentation (DESIGN §1, §9): a Plan as text, JSON or Markdown, apply's results, the one-line label of a
 * change and the one Markdown escaper. Each is a pure function of plan or apply data.
 */
import type { Plan } from "../plan/types.ts";
import { renderJson } from "./plan-json.ts";
import { renderMarkdown } from "./plan-markdown.ts";
import { partialLine, renderText } from "./plan-text.ts";

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

export { printable } from "./_values.ts";
export { type ChangeDescription, changeLine, describeChange, type LineOptions } from "./change-line.ts";
export { md } from "./md.ts";
export { renderResultsMarkdown } from "./results-markdown.ts";
export { itemLine, renderResultsText } from "./results-text.ts";
export { waitLine } from "./wait-line.ts";
export { partialLine, renderJson, renderMarkdown, renderText };
