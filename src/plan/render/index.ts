/** One entry point for the three renderings of a Plan (DESIGN §1). Each is a pure function of the plan. */
import type { Plan } from "../types.ts";
import { renderJson } from "./json.ts";
import { renderMarkdown } from "./markdown.ts";
import { renderText } from "./text.ts";

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

export { renderJson, renderMarkdown, renderText };
export { printable } from "./_values.ts";
