/**
 * An account's run as text sections for a terminal or a log (the CLI): the summary for stdout (the plan, or
 * apply's results), the notes for stderr (what was skipped and why, how to go on), and the error that
 * ended the run, if one did. Pure.
 */
import type { ItemResult } from "../apply/types.ts";
import type { LeftOut } from "../config/export-fit.ts";
import type { Config } from "../config/types.ts";
import { agree, plural } from "../model/plural.ts";
import { printable } from "../model/printable.ts";
import type { Change, Plan } from "../plan/types.ts";
import type { AccountRun, ApplyReport, Outcome } from "../run/types.ts";
import { changeLine } from "./change-line.ts";
import { errorLines } from "./error-text.ts";
import { renderJson } from "./plan-json.ts";
import { renderMarkdown } from "./plan-markdown.ts";
import { partialLine, renderText } from "./plan-text.ts";
import { refusalWords } from "./refusal-words.ts";
import { renderResultsMarkdown } from "./results-markdown.ts";
import { renderResultsText } from "./results-text.ts";
import { reviewProblemWords, reviewStatusLine } from "./review-words.ts";
import type { Sections } from "./sections.ts";
import { adoptSections } from "./update-text.ts";

export interface TextContext {
  format: "text" | "json" | "markdown";
  /** `--quiet`: only results and errors. */
  quiet: boolean;
  color: boolean;
  /** Data as JSON, the secrets withheld (the run's redactor: it knows them). */
  json: (value: unknown) => string;
  /** `plan --out FILE`: where the plan goes (a refused plan is not saved there). */
  out?: string | undefined;
  /** `apply`: the plan was shown before the prompt (with its refusals), so they are not said again. */
  shownPlan?: boolean;
  /** `export --update --dry-run`: the diff was shown, nothing written. */
  dryRun?: boolean;
}

/** The sections of one account's run, for the command that ran. */
export function accountText(run: AccountRun, outcome: Outcome, context: TextContext): Sections {
  const sections = bodyOf(run, outcome, context);
  if (run.error !== undefined) sections.notes.push(...errorLines(run.error, run.keys));
  return sections;
}

function bodyOf(run: AccountRun, outcome: Outcome, context: TextContext): Sections {
  if (outcome.command === "plan") return planSections(run, context);
  if (outcome.command === "export") return exportSections(run, context);
  if (outcome.command === "adopt") return run.adopted ? adoptSections(run.adopted, context) : { summary: "", notes: [] };
  return applySections(run, outcome.resultsFile, context);
}

/**
 * `sitesync.yaml is valid: 2 websites, 1 project.`; for a fleet, how many files were checked and what each
 * account holds: `… is valid: 7 websites in 6 files; eu: 4 websites, us: 3 websites.`
 */
export function validSummary({ config, error }: Outcome, { quiet }: Pick<TextContext, "quiet">): string {
  if (!config || error !== undefined || quiet) return "";
  const files = config.includes ? ` in ${plural(config.includes.length + 1, "file")}` : "";
  const accounts = config.accounts?.map((account) => `${printable(account.name)}: ${managedCounts(account)}`);
  return `${config.file} is valid: ${managedCounts(config)}${files}${accounts ? `; ${accounts.join(", ")}` : ""}.`;
}

/** `show`: the config a saved plan was made from has changed since (a note: `show` only looks). */
export function configChangedNote(which: string, file: string): string {
  return `note: ${which} changed since this plan was made: \`sitesync apply ${file}\` would refuse it; plan again to review the current config.`;
}

/** `2 websites, 1 project`: what a config manages. */
function managedCounts(config: Pick<Config, "websites" | "projects">): string {
  const projects = config.projects ? `, ${plural(config.projects.length, "project")}` : "";
  return `${plural(config.websites.length, "website")}${projects}`;
}

function planSections({ plan, error, planFile }: AccountRun, context: TextContext): Sections {
  if (!plan || error !== undefined) return { summary: "", notes: [] };
  const { format, quiet, out } = context;
  const quietNothing = quiet && format === "text" && plan.changes.length === 0 && plan.refusals.length === 0;
  const summary = quietNothing ? "" : planIn(plan, context);
  // The text plan already ends with the reasons: say them once. JSON and Markdown usually go to a file.
  if (plan.refusals.length > 0 && format === "text") {
    return { summary, notes: [`error: the plan was refused by a safety rail (reason above)${out ? `; ${out} was not written` : ""}`] };
  }
  if (plan.refusals.length > 0) return { summary, notes: [refusalLine(plan)] };
  return { summary, notes: planFile && !quiet ? [`Saved the plan to ${planFile}; apply it with: sitesync apply ${planFile}`] : [] };
}

function planIn(plan: Plan, { format, color }: TextContext): string {
  if (format === "json") return renderJson(plan);
  // A named account's section is headed with its name and address (outcome-accounts.ts): not said twice.
  return format === "markdown" ? renderMarkdown(plan) : renderText(plan, { color, accountInHeading: plan.account !== undefined });
}

/** Why the plan was refused (safety rails), after it was shown. */
function refusalLine(plan: Plan): string {
  return `error: ${plan.refusals.map((r) => printable(refusalWords(r, "cli"))).join("\n")}`;
}

function applySections(run: AccountRun, resultsFile: string | undefined, context: TextContext): Sections {
  const { plan, results, review } = run;
  const notes: string[] = [];
  // A shown plan carries its own banners; say it again beside results, and where no plan was shown.
  if (plan?.selection && plan.refusals.length === 0 && (results || plan.changes.length === 0)) {
    notes.push(`${partialLine(plan.selection)} (websites and projects outside it were left alone)`);
  }
  // A plan shown before the prompt already ends with its reasons: say them once.
  if (plan && plan.refusals.length > 0 && !context.shownPlan) notes.push(refusalLine(plan));
  if (review?.problem) notes.push(`warning: ${reviewProblemWords(review.problem, run.name)}`);
  if (review && !context.quiet) for (const item of review.noLongerNeeded) notes.push(noLongerNeeded(item));
  if (review) notes.push(reviewStatusLine(review, run));
  if (!results) {
    const matches = run.error === undefined && plan?.refusals.length === 0 && !context.quiet;
    return { summary: matches ? "No changes. The account matches the configuration." : "", notes };
  }
  // One by one, here and above: a spread of 100,000 arguments overflows the stack.
  for (const note of afterApply(run, results, resultsFile)) notes.push(note);
  if (run.unconverged) for (const note of verification(run.unconverged)) notes.push(note);
  if (run.notInSavedPlan && !context.quiet) notes.push(notInSavedPlan(run.notInSavedPlan));
  return { summary: resultsIn(results, context), notes };
}

function resultsIn(results: ApplyReport, { format, color, json }: TextContext): string {
  if (format === "json") return json(results);
  return format === "markdown" ? renderResultsMarkdown(results.items, results.counts) : renderResultsText(results, color);
}

function noLongerNeeded(change: Change): string {
  const what = change.kind === "project" ? `project ${change.project}` : change.domain;
  return `no longer needed: ${change.action} ${what} (reviewed, but a fresh plan does not call for it: the account already matches, or the config changed)`;
}

/** How the apply ended, when not simply: interrupted, stopped early, or with changes skipped on purpose. */
function afterApply(run: AccountRun, results: ApplyReport, resultsFile: string | undefined): string[] {
  if (results.interrupted) return [interruptedSummary(results, resultsFile)];
  if (results.aborted) return [`error: the run stopped early: ${printable(results.aborted)}`];
  const notReviewed = run.skipped.filter((item) => item.reason === "not-reviewed").length;
  if (run.review) {
    const were = agree(notReviewed, "was", "were");
    return notReviewed > 0
      ? [`${plural(notReviewed, "change")} ${were} not applied: not in the reviewed plan. Plan again, review and apply them.`]
      : [];
  }
  return run.skipped.length > 0 ? [skippedSummary(run.skipped)] : [];
}

/**
 * What an interrupted apply did, and that running it again finishes the job; a signal that came after the
 * last change was sent leaves nothing to finish, and says so.
 */
function interruptedSummary(results: ApplyReport, resultsFile: string | undefined): string {
  const notStarted = results.items.filter((item) => item.reason === "not-started").length;
  const applied = results.items.filter((item) => item.status === "applied").length;
  const failed = results.counts.failed;
  const where = resultsFile ? `; results written to ${resultsFile}` : "";
  const next = notStarted + failed > 0 ? "Run apply again to finish." : "Every change had been sent: nothing is left to finish.";
  return `Interrupted by ${results.interrupted}: ${applied} applied, ${failed} failed, ${notStarted} not started${where}. ${next}`;
}

/** Skipped changes of a saved plan: those the account shows done already are told apart (not to plan again). */
function skippedSummary(skipped: readonly ItemResult[]): string {
  const done = skipped.filter((item) => item.reason === "already-applied").length;
  const needs = skipped.filter((item) => item.reason === "needs-secret").length;
  const moved = skipped.length - done - needs;
  const them = (n: number) => agree(n, "it", "them");
  const were = (n: number) => agree(n, "was", "were");
  const parts = [
    ...(done > 0
      ? [`${plural(done, "change")} ${were(done)} already applied: this plan was applied before, nothing to do for ${them(done)}`]
      : []),
    ...(needs > 0
      ? [
          `${plural(needs, "change")} ${were(needs)} not applied: ${agree(needs, "it needs", "they need")} a password the config does not set (said above)`,
        ]
      : []),
    ...(moved > 0 ? [`${plural(moved, "change")} ${were(moved)} stale and skipped: plan again to review ${them(moved)}`] : []),
  ];
  return `${parts.join("; ")}.`;
}

/** `apply --verify`: every change that a re-read still finds (an API that rewrites a value). */
function verification(unconverged: readonly Change[]): string[] {
  if (unconverged.length === 0) return ["Verified: the account matches the configuration."];
  return [
    `Verify: ${plural(unconverged.length, "change")} did not converge:`,
    ...unconverged.map((c) => `  ${changeLine(c, { fields: "values" })}`),
  ];
}

function notInSavedPlan(n: number): string {
  const one = n === 1;
  return `${plural(n, "other difference")} found now ${one ? "is" : "are"} not in the saved plan and ${one ? "was" : "were"} not applied: plan again to review ${one ? "it" : "them"}.`;
}

function exportSections({ exported }: AccountRun, { quiet }: TextContext): Sections {
  if (!exported) return { summary: "", notes: [] };
  const { file } = exported;
  const projects = exported.projects === undefined ? "" : ` and ${plural(exported.projects, "project")}`;
  const notes = leftOutNotes(exported.leftOut);
  if (!quiet) notes.push(`Exported ${plural(exported.websites, "website")}${projects}${file ? ` to ${file}` : ""}.`);
  return { summary: file ? "" : exported.yaml, notes };
}

/** What no config can hold, also said in the file; the first 20, the rest counted (each is in the file). */
function leftOutNotes(leftOut: readonly LeftOut[]): string[] {
  const shown = leftOut.slice(0, MAX_LEFT_OUT_NOTES).map((item) => `warning: ${printable(item.domain)} (id ${item.id}) ${wordsOf(item)}`);
  const more = leftOut.length - shown.length;
  if (more > 0) shown.push(`warning: ${plural(more, "more website")} left out or cut short, each said in the file`);
  return shown;
}

const MAX_LEFT_OUT_NOTES = 20;

function wordsOf(item: LeftOut): string {
  return item.field === undefined ? `is left out of the file: ${printable(item.why)}` : `has its ${printable(item.why)}`;
}
