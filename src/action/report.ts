/**
 * What one run of the Action has to say, as Markdown in two parts: a summary that is always shown, and
 * details that a comment folds in `<details>` and cuts when too long (see compose.ts). Pure functions.
 */
import { ApiError, ConfigError, type Diagnostic, diagnosticPlace, InternalError } from "../errors.ts";
import type { Plan } from "../plan/types.ts";
import { md, renderMarkdown, renderResultsMarkdown } from "../render/index.ts";
import { ExitCode, exitCodeOf } from "../run/exit-code.ts";
import type { ApplyReport, Outcome } from "../run/types.ts";

export interface Report {
  /** Shown first and whole: heading, verdict, counts. */
  summary: string;
  /** The long part: folded in a comment, cut with a note when the comment would be too long. */
  details?: { title: string; markdown: string };
  /** The run's exit code (DESIGN §7), as the Outcome says. */
  exitCode: number;
  /** Why the step fails, when `exitCode` is not 0. */
  failure?: string;
}

/** What an Outcome of the orchestrator has to say; its exit code is the Outcome's. */
export function reportOf(outcome: Outcome, command: string, configLabel: string): Report {
  const { error, plan, results, exitCode } = outcome;
  if (error instanceof ConfigError) return configErrorReport(command, configLabel, error.diagnostics, outcome.warnings, exitCode);
  if (error !== undefined) return errorReport(command, configLabel, error, exitCode);
  if (plan && results) return applyReport(plan, results, exitCode);
  if (plan) return planReport(plan, exitCode);
  throw new InternalError(`the ${command} run ended without a plan or an error`);
}

/** The plan as a pull request shows it: counts first, then the changes, folded. */
export function planReport(plan: Plan, exitCode: number): Report {
  const [summary, rest] = splitPlanMarkdown(renderMarkdown(plan));
  const n = plan.changes.length;
  const report: Report = { summary, exitCode };
  if (rest) report.details = { title: `Show the plan (${n} change${n === 1 ? "" : "s"})`, markdown: rest };
  if (plan.refusals.length > 0) return { ...report, failure: `refused: ${plan.refusals.map((r) => r.message).join("; ")}` };
  if (exitCode === ExitCode.changes) {
    return { ...report, failure: `the account differs from the config: ${n} change${n === 1 ? "" : "s"} (exit 2, detailed-exitcode)` };
  }
  return report;
}

/**
 * The Markdown plan up to its first per-action section (`#### Create`...) is the summary: heading, refusals,
 * the counts table. The sections after it are the details.
 */
export function splitPlanMarkdown(markdown: string): [string, string | undefined] {
  const at = markdown.indexOf("\n#### ");
  if (at < 0) return [markdown.trimEnd(), undefined];
  return [markdown.slice(0, at).trimEnd(), markdown.slice(at + 1).trimEnd()];
}

/** The results of an apply, with the plan that was applied as details. */
export function applyReport(plan: Plan, { items, counts, aborted }: ApplyReport, exitCode: number): Report {
  const blocks = [renderResultsMarkdown(items, counts).trimEnd()];
  if (aborted) blocks.push(callout("CAUTION", `The run stopped early: ${md(aborted)}`));
  const details = { title: "The plan that was applied", markdown: renderMarkdown(plan).trimEnd() };
  const report = { summary: blocks.join("\n\n"), details, exitCode };
  if (aborted) return { ...report, failure: `the run stopped early: ${aborted}` };
  if (counts.failed > 0) return { ...report, failure: `${counts.failed} change${counts.failed === 1 ? "" : "s"} failed; see the results` };
  return report;
}

export interface OfflineFacts {
  /** Why no plan was made, as a sentence part: "this pull request comes from a fork". */
  reason: string;
  websites: number;
  projects: number | undefined;
  standIns: string[];
  warnings: Diagnostic[];
}

/** A config checked without the API: what was checked, and why nothing more was done. Never fails. */
export function offlineReport(configLabel: string, facts: OfflineFacts, exitCode: number): Report {
  const managed = [`${facts.websites} website${facts.websites === 1 ? "" : "s"}`];
  if (facts.projects !== undefined) managed.push(`${facts.projects} project${facts.projects === 1 ? "" : "s"}`);
  const lines = [`No plan was made: ${md(facts.reason)}. The config was validated offline and is valid (${managed.join(", ")}).`];
  if (facts.standIns.length > 0) {
    const names = facts.standIns.map((name) => `\`${name}\``).join(", ");
    lines.push(`Not available to this run, so checked with stand-in values: ${names}.`);
  }
  const blocks = [heading("plan", configLabel), callout("NOTE", ...lines)];
  if (facts.warnings.length > 0) blocks.push(diagnosticList("Warnings", facts.warnings));
  return { summary: blocks.join("\n\n"), exitCode };
}

/** Config errors stop the run before any API call (DESIGN §2); each is also an annotation at its line. */
function configErrorReport(command: string, configLabel: string, errors: Diagnostic[], warnings: Diagnostic[], exitCode: number): Report {
  const n = errors.length;
  const verdict = `The config has ${n} error${n === 1 ? "" : "s"}: nothing was sent to the API.`;
  const blocks = [heading(command, configLabel), callout("CAUTION", verdict), diagnosticList("Errors", errors)];
  if (warnings.length > 0) blocks.push(diagnosticList("Warnings", warnings));
  return { summary: blocks.join("\n\n"), exitCode, failure: `${n} error${n === 1 ? "" : "s"} in ${configLabel}` };
}

/** Any other failure (API, usage, internal): said once, with what to do where that is known. */
export function errorReport(command: string, configLabel: string, error: unknown, exitCode = exitCodeOf(error)): Report {
  const message = error instanceof Error ? error.message : String(error);
  const lines = [`sitesync ${command} failed: ${md(message)}`];
  if (error instanceof ApiError && (error.kind === "redirect" || error.status === 401)) {
    lines.push("Check the api-key input (and projects-api-key): the server did not accept it.");
  }
  const summary = [heading(command, configLabel), callout("CAUTION", ...lines)].join("\n\n");
  return { summary, exitCode, failure: message };
}

function heading(command: string, configLabel: string): string {
  return `### sitesync ${command} for ${md(configLabel)}`;
}

/** A GitHub alert block; `lines` are Markdown already (callers escape what they did not write). */
function callout(kind: "NOTE" | "CAUTION", ...lines: string[]): string {
  return [`> [!${kind}]`, ...lines.map((line) => `> ${line}`)].join("\n");
}

function diagnosticList(title: string, diagnostics: Diagnostic[]): string {
  const item = (d: Diagnostic) => `- \`${diagnosticPlace(d)}\` ${md(d.path ? `${d.path}: ${d.message}` : d.message)}`;
  return [`#### ${title}`, ...diagnostics.map(item)].join("\n");
}
