/**
 * An account's run as GitHub-flavored Markdown sections (the Action's job summary and pull-request comment): a
 * plan with its counts first and its changes as details, apply's results with the plan applied as details,
 * the review of an apply on merge, config errors and other failures. Pure; every name and message escaped.
 */
import { ApiError, ConfigError, type Diagnostic } from "../errors.ts";
import { agree, plural } from "../model/plural.ts";
import type { Change, Plan } from "../plan/types.ts";
import { ExitCode } from "../run/exit-code.ts";
import type { AccountRun, ApplyReport, Outcome } from "../run/types.ts";
import { changeLine } from "./change-line.ts";
import { problemMessage } from "./error-text.ts";
import { itemNote } from "./item-note.ts";
import { md } from "./md.ts";
import { planMarkdownParts, renderMarkdown } from "./plan-markdown.ts";
import { refusalWords } from "./refusal-words.ts";
import { renderResultsMarkdown } from "./results-markdown.ts";
import { reviewProblemWords } from "./review-words.ts";
import type { OfflineReason, Sections } from "./sections.ts";

/** What a person can do when nothing reviewed can be applied. */
const HOW_TO_PROCEED =
  "To apply the current plan anyway, run the workflow by hand (workflow_dispatch) with `apply-unreviewed: true`, " +
  "or open a pull request, let it plan, and merge it.";

export interface MarkdownContext {
  command: string;
  /** The config as the reader knows it: its path in the checkout. */
  configLabel: string;
  /** An apply on merge: the pull request it merged, if any; `unreviewed`: `apply-unreviewed: true`, run by hand. */
  merge?: { pullRequest?: number | undefined; unreviewed?: boolean };
}

/** The sections of an error that ended the run before (or across) its accounts. */
export function outcomeErrorMarkdown(outcome: Outcome, { command, configLabel }: MarkdownContext): Sections {
  if (outcome.error instanceof ConfigError) return configErrorMarkdown(command, configLabel, outcome.error.diagnostics, outcome.warnings);
  return errorMarkdown(command, configLabel, outcome.error);
}

/** The sections of one account's run. */
export function accountMarkdown(run: AccountRun, outcome: Outcome, context: MarkdownContext): Sections {
  const { error, plan, results } = run;
  const { command, configLabel } = context;
  let sections: Sections;
  if (error instanceof ConfigError) sections = configErrorMarkdown(command, configLabel, error.diagnostics, outcome.warnings);
  else if (error !== undefined) sections = errorMarkdown(command, configLabel, error);
  else if (plan && results) sections = applyMarkdown(plan, results, run.unconverged);
  else if (plan) sections = planMarkdown(plan, run.exitCode === ExitCode.changes);
  else sections = errorMarkdown(command, configLabel, new Error(`the ${command} run ended without a plan or an error`));
  if (context.merge?.unreviewed) return withUnreviewed(sections);
  return run.review ? withReview(sections, run, context.merge?.pullRequest) : sections;
}

/** The plan as a pull request shows it: counts first, then the changes, folded. */
function planMarkdown(plan: Plan, detailedChanges: boolean): Sections {
  const { head, body } = planMarkdownParts(plan, "action");
  const n = plan.changes.length;
  const sections: Sections = { summary: head, notes: [] };
  if (body) sections.details = { title: `Show the plan (${plural(n, "change")})`, body };
  if (plan.refusals.length > 0)
    return { ...sections, failure: `refused: ${plan.refusals.map((r) => refusalWords(r, "action")).join("; ")}` };
  if (detailedChanges)
    return { ...sections, failure: `the account differs from the config: ${plural(n, "change")} (exit 2, detailed-exitcode)` };
  return sections;
}

/** The results of an apply, with the plan that was applied as details; with `verify`, what a re-read still finds. */
function applyMarkdown(plan: Plan, { items, counts, aborted }: ApplyReport, unconverged: readonly Change[] | undefined): Sections {
  const blocks = [renderResultsMarkdown(items, counts).trimEnd()];
  if (aborted) blocks.push(callout("CAUTION", `The run stopped early: ${md(aborted)}`));
  if (unconverged) blocks.push(verification(unconverged));
  const details = { title: "The plan that was applied", body: renderMarkdown(plan, "action").trimEnd() };
  const sections: Sections = { summary: blocks.join("\n\n"), details, notes: [] };
  if (aborted) return { ...sections, failure: `the run stopped early: ${aborted}` };
  if (counts.failed > 0) return { ...sections, failure: `${plural(counts.failed, "change")} failed; see the results` };
  if (unconverged && unconverged.length > 0)
    return { ...sections, failure: `${plural(unconverged.length, "change")} did not converge (verify)` };
  return sections;
}

/** `verify`: every change a re-read of the account still finds (an API that rewrites a value), as the CLI says it. */
function verification(unconverged: readonly Change[]): string {
  if (unconverged.length === 0) return callout("NOTE", "Verified: the account matches the configuration.");
  const lines = unconverged.map((c) => `- ${md(changeLine(c, { fields: "values" }))}`);
  return [`#### Verify: ${plural(unconverged.length, "change")} did not converge`, ...lines].join("\n");
}

export interface OfflineFacts {
  reason: OfflineReason;
  websites: number;
  projects: number | undefined;
  /** The variables checked with stand-in values. */
  standIns: string[];
  warnings: Diagnostic[];
}

const OFFLINE_WORDS: Record<OfflineReason, string> = {
  fork: "this pull request comes from a fork, and sitesync never sends the API key for a fork's config",
  "no-api-key": "no api-key was given to this run",
};

/** A config checked without the API: what was checked, and why nothing more was done. Never fails. */
export function offlineMarkdown(configLabel: string, facts: OfflineFacts): Sections {
  const managed = [plural(facts.websites, "website")];
  if (facts.projects !== undefined) managed.push(plural(facts.projects, "project"));
  const lines = [
    `No plan was made: ${md(OFFLINE_WORDS[facts.reason])}. The config was validated offline and is valid (${managed.join(", ")}).`,
  ];
  if (facts.standIns.length > 0) {
    const names = facts.standIns.map((name) => `\`${name}\``).join(", ");
    lines.push(`Not available to this run, so checked with stand-in values: ${names}.`);
  }
  const blocks = [heading("plan", configLabel), callout("NOTE", ...lines)];
  if (facts.warnings.length > 0) blocks.push(diagnosticList("Warnings", facts.warnings));
  return { summary: blocks.join("\n\n"), notes: [] };
}

/** The log line of an offline validation. */
export function offlineLogLine(configLabel: string, reason: OfflineReason): string {
  return `No plan was made: ${OFFLINE_WORDS[reason]}. ${configLabel} is valid.`;
}

/** Config errors stop the run before any API call (DESIGN §2); each is also an annotation at its line. */
function configErrorMarkdown(command: string, configLabel: string, errors: Diagnostic[], warnings: Diagnostic[]): Sections {
  const verdict = `The config has ${plural(errors.length, "error")}: nothing was sent to the API.`;
  const blocks = [heading(command, configLabel), callout("CAUTION", verdict), diagnosticList("Errors", errors)];
  if (warnings.length > 0) blocks.push(diagnosticList("Warnings", warnings));
  return { summary: blocks.join("\n\n"), notes: [], failure: `${plural(errors.length, "error")} in ${configLabel}` };
}

/** Any other failure (API, usage, internal): said once, with what to do where that is known. */
export function errorMarkdown(command: string, configLabel: string, error: unknown): Sections {
  // The Action's words: its inputs (`websites-url`), never the CLI's flags.
  const message = problemMessage(error, "action") ?? (error instanceof Error ? error.message : String(error));
  const lines = [`sitesync ${command} failed: ${md(message)}`];
  if (error instanceof ApiError && (error.kind === "redirect" || error.status === 401)) {
    lines.push("Check the api-key input (and projects-api-key): the server did not accept it.");
  }
  const summary = [heading(command, configLabel), callout("CAUTION", ...lines)].join("\n\n");
  return { summary, notes: [], failure: message };
}

/** `sections` under the warning that nothing was reviewed: `apply-unreviewed: true`, run by hand. */
function withUnreviewed(sections: Sections): Sections {
  const warning = callout("WARNING", "Applied without a reviewed plan: `apply-unreviewed: true`, run by hand.");
  return { ...sections, summary: `${warning}\n\n${sections.summary}` };
}

/** `sections` with the review's verdict first (its status: run/review-status.ts); an apply that left changes unapplied fails (exit 4) saying so. */
function withReview(sections: Sections, run: AccountRun, pullRequest: number | undefined): Sections {
  const review = run.review!;
  const notApplied = run.skipped.filter((item) => item.reason === "not-reviewed");
  const where = pullRequest === undefined ? "the pull request" : `pull request #${pullRequest}`;
  const blocks = [reviewVerdict(run, where)];
  if (notApplied.length > 0) {
    const lines = notApplied.map((i) => `- ${md(changeLine(i.change))}: ${md(itemNote(i) ?? "")}`);
    blocks.push(["#### Not applied: not in the reviewed plan", ...lines].join("\n"));
  }
  if (review.noLongerNeeded.length > 0) {
    const lines = review.noLongerNeeded.map((c) => `- ${md(changeLine(c))}`);
    blocks.push(["#### Reviewed, no longer needed (the account already matches)", ...lines].join("\n"));
  }
  const summary = `${blocks.join("\n\n")}\n\n${sections.summary}`;
  if (run.exitCode !== ExitCode.refused || sections.failure) return { ...sections, summary };
  const n = notApplied.length;
  const failure =
    review.status === "partial"
      ? `${plural(n, "change")} not applied: not in the reviewed plan of ${where}`
      : `nothing reviewed was applied (${review.status}). ${HOW_TO_PROCEED}`;
  return { ...sections, summary, failure };
}

/** The callout that says what became of the review. */
function reviewVerdict(run: AccountRun, where: string): string {
  const review = run.review!;
  const problem = review.problem ? reviewProblemWords(review.problem, run.name, "action") : undefined;
  const n = run.skipped.filter((item) => item.reason === "not-reviewed").length;
  const failed = run.results?.counts.failed ?? 0;
  switch (review.status) {
    case "applied":
      return (run.results?.counts.applied ?? 0) === 0
        ? callout("NOTE", `Nothing to apply: the account already matches what ${where} reviewed.`)
        : callout(
            "NOTE",
            `Applied what ${where} reviewed: only the changes identical in its reviewed plan and in a fresh plan of the account as it is now.`,
          );
    case "partial":
      if (n === 0)
        return callout("CAUTION", `Applied part of what ${where} reviewed: ${plural(failed, "change")} failed; see the results.`);
      return callout(
        "CAUTION",
        `${plural(n, "change")} ${agree(n, "was", "were")} not applied: not in the reviewed plan of ${where}. ` +
          "The account or the config changed between the review and the merge (an edit in the web UI, another pull request). " +
          (problem ? `${md(problem)} ` : "") +
          `Review ${agree(n, "it", "them")} in a new pull request, or run the workflow by hand (workflow_dispatch) with \`apply-unreviewed: true\`.`,
      );
    case "stale":
    case "missing":
      if (n === 0 && run.error === undefined && run.plan !== undefined) {
        return callout("NOTE", `No reviewed plan (${review.status}), and none was needed: the account matches the config.`);
      }
      return callout("CAUTION", `Nothing reviewed was applied: ${md(problem ?? "there is no reviewed plan")}.`, HOW_TO_PROCEED);
    case "nothing-applied": {
      const why = problem ?? (run.error !== undefined ? "the run failed before applying it (the error is below)" : failedWhy(failed, run));
      return callout("CAUTION", `Nothing reviewed was applied: ${md(why)}.`, HOW_TO_PROCEED);
    }
  }
}

function failedWhy(failed: number, run: AccountRun): string {
  if (failed > 0) return `${plural(failed, "change")} failed; see the results`;
  if ((run.plan?.refusals.length ?? 0) > 0) return "a safety rail refused the plan";
  return "none of the changes due is in the reviewed plan";
}

function heading(command: string, configLabel: string): string {
  return `### sitesync ${command} for ${md(configLabel)}`;
}

/** A GitHub alert block; `lines` are Markdown already (callers escape what they did not write). */
function callout(kind: "NOTE" | "WARNING" | "CAUTION", ...lines: string[]): string {
  return [`> [!${kind}]`, ...lines.map((line) => `> ${line}`)].join("\n");
}

function diagnosticList(title: string, diagnostics: Diagnostic[]): string {
  const item = (d: Diagnostic) => `- \`${d.file}:${d.line}:${d.column}\` ${md(d.path ? `${d.path}: ${d.message}` : d.message)}`;
  return [`#### ${title}`, ...diagnostics.map(item)].join("\n");
}
