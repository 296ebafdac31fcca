import { createInterface } from "node:readline/promises";
import { isAlreadyApplied } from "../apply/preconditions.ts";
import { readSavedPlan } from "../apply/saved-plan.ts";
import type { ItemResult } from "../apply/types.ts";
import { UsageError } from "../errors.ts";
import type { Plan } from "../plan/types.ts";
import { partialLine, printable, render, renderResultsMarkdown, renderResultsText } from "../render/index.ts";
import { run } from "../run/run.ts";
import type { Outcome, ReviewOutcome, RunHooks } from "../run/types.ts";
import { apiArgs, configArgs, type Format, outputArgs, planArgs, runSettings } from "./_args.ts";
import { command } from "./_command.ts";
import { CancelledError } from "./_errors.ts";
import type { Io } from "./_io.ts";
import { progressReporter } from "./_progress.ts";
import { cliHooks, conclude, reportRefusals } from "./_run.ts";
import { printVerification } from "./_verify.ts";

export default command({
  meta: { name: "apply", description: "Make the account match the config: creates, then updates, then deletes." },
  args: {
    plan: {
      type: "positional",
      required: false,
      description: "A plan saved by `sitesync plan --out` (else plan now)",
      valueHint: "plan.json",
    },
    ...configArgs,
    ...apiArgs,
    ...planArgs,
    ...outputArgs,
    "auto-approve": { type: "boolean", alias: "y", description: "Apply without asking (required when not on a terminal)" },
    results: { type: "string", description: "Write the results as JSON to this file", valueHint: "results.json" },
    verify: { type: "boolean", description: "Re-read the account afterwards and report fields that did not converge" },
    reviewed: {
      type: "string",
      description: "Plan again, apply only the changes identical in this reviewed plan (`plan --out`), report the rest (exit 4)",
      valueHint: "plan.json",
    },
  },
  examples: [
    "sitesync apply                 # plan, show it, ask, apply",
    "sitesync apply --auto-approve --results results.json   # in CI",
    "sitesync apply plan.json       # apply a reviewed plan; stale items are skipped (exit 4)",
    "sitesync apply --reviewed plan.json   # plan again, apply only what plan.json also holds (exit 4 for the rest)",
    "sitesync apply --exclude 'legacy-*'   # plan and apply all but the legacy sites",
  ],
  async run(flags, { io, env, rawArgs, signal }) {
    const settings = runSettings(flags, rawArgs);
    if (flags.plan && flags.reviewed) {
      throw new UsageError(`give either a saved plan (${flags.plan}) or --reviewed ${flags.reviewed}, not both`);
    }
    const saved = flags.plan ? readSavedPlan(flags.plan) : undefined;
    if (saved) rejectPlanningFlags(rawArgs);
    const reviewed = flags.reviewed ? readSavedPlan(flags.reviewed) : undefined;
    const given = saved ?? reviewed;
    const explicitConfig = rawArgs.some((a) => a === "-c" || a.startsWith("--config"));
    const progress = progressReporter(io, Boolean(flags.quiet));
    const hooks: RunHooks = {
      ...cliHooks(io, flags),
      // A saved or reviewed plan was reviewed already: it is applied without showing it or asking again.
      ...(given ? {} : { onPlan: (plan: Plan) => showPlan(plan, io) }),
      ...(given || flags["auto-approve"] ? {} : { approve: () => confirm(signal) }),
      ...(progress.onItem ? { onItem: progress.onItem } : {}),
    };
    const outcome = await run(
      {
        command: "apply",
        config: given && !explicitConfig ? given.configFile : flags.config,
        env,
        settings: { ...settings, savedPlan: saved, reviewed, verify: Boolean(flags.verify), resultsFile: flags.results },
        redactor: io.redactor,
        signal,
      },
      hooks,
    );
    progress.finish();
    return showOutcome(outcome, io, { format: flags.format, quiet: Boolean(flags.quiet), shownPlan: !given });
  },
});

function showOutcome(outcome: Outcome, io: Io, options: { format: Format; quiet: boolean; shownPlan: boolean }): number {
  const { plan, results, stale } = outcome;
  // A shown plan carries its own banners; say it again beside results, and where no plan was shown.
  if (plan?.selection && plan.refusals.length === 0 && (results || plan.changes.length === 0)) {
    io.err(`${partialLine(plan.selection)} (websites and projects outside it were left alone)`);
  }
  // A plan shown before the prompt already ends with its reasons: say them once.
  if (plan && plan.refusals.length > 0 && !options.shownPlan) reportRefusals(plan, io);
  if (outcome.review) reportReview(outcome.review, io, options.quiet);
  if (!results) {
    if (outcome.error === undefined && plan?.refusals.length === 0 && !options.quiet)
      io.out("No changes. The account matches the configuration.");
    return conclude(outcome, io);
  }
  if (options.format === "json") io.out(io.redactor.json(results));
  else
    io.out(
      options.format === "markdown"
        ? renderResultsMarkdown(results.items, results.counts)
        : renderResultsText(results.items, results.counts, io.color),
    );
  if (outcome.interrupted) io.err(interruptedSummary(outcome));
  else if (results.aborted) io.err(`error: the run stopped early: ${printable(results.aborted)}`);
  else if (outcome.review) {
    const n = outcome.review.notApplied.length;
    if (n > 0)
      io.err(`${n} change${n === 1 ? " was" : "s were"} not applied: not in the reviewed plan. Plan again, review and apply them.`);
  } else if (stale.length > 0) io.err(staleSummary(stale));
  if (outcome.unconverged) printVerification(outcome.unconverged, io);
  if (outcome.notInSavedPlan && !options.quiet) {
    const n = outcome.notInSavedPlan;
    io.err(
      `${n} other difference${n === 1 ? "" : "s"} found now ${n === 1 ? "is" : "are"} not in the saved plan and ${n === 1 ? "was" : "were"} not applied: plan again to review ${n === 1 ? "it" : "them"}.`,
    );
  }
  return conclude(outcome, io);
}

/** Stale changes of a saved plan: those the account shows done already are told apart (not to plan again). */
function staleSummary(stale: readonly ItemResult[]): string {
  const done = stale.filter(isAlreadyApplied).length;
  const moved = stale.length - done;
  const parts = [
    ...(done > 0
      ? [
          `${done} change${done === 1 ? " was" : "s were"} already applied: this plan was applied before, nothing to do for ${done === 1 ? "it" : "them"}`,
        ]
      : []),
    ...(moved > 0
      ? [`${moved} change${moved === 1 ? " was" : "s were"} stale and skipped: plan again to review ${moved === 1 ? "it" : "them"}`]
      : []),
  ];
  return `${parts.join("; ")}.`;
}

/** Why a review approves nothing, and the reviewed changes that are no longer needed (not failures). */
function reportReview(review: ReviewOutcome, io: Io, quiet: boolean): void {
  if (review.problem) io.err(`warning: ${review.problem}`);
  if (quiet) return;
  for (const change of review.noLongerNeeded) {
    const what = change.kind === "project" ? `project ${change.project}` : change.domain;
    io.err(
      `no longer needed: ${change.action} ${what} (reviewed, but a fresh plan does not call for it: the account already matches, or the config changed)`,
    );
  }
}

/** A saved plan is applied as reviewed: flags that would change what it does belong to `plan`. */
function rejectPlanningFlags(rawArgs: string[]): void {
  const given = Object.keys(planArgs).filter((flag) => rawArgs.some((a) => a === `--${flag}` || a.startsWith(`--${flag}=`)));
  if (given.length > 0) {
    const flags = given.map((f) => `--${f}`).join(" ");
    // The suggested command repeats each flag with its value (`--target 'shop-*'`), so that it can be run as it is.
    const command = planningFlagsWithValues(rawArgs).join(" ");
    throw new UsageError(`${flags} changes what is planned, not a saved plan: run \`sitesync plan ${command} --out plan.json\` again`);
  }
}

function planningFlagsWithValues(rawArgs: string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i]!;
    const [name = "", inline] = arg.startsWith("--") ? arg.slice(2).split(/=(.*)/s) : [];
    const def = (planArgs as Record<string, { type: string }>)[name];
    if (!def) continue;
    if (def.type === "boolean") words.push(`--${name}`);
    else {
      const value = inline ?? rawArgs[++i];
      words.push(value === undefined ? `--${name}` : `--${name} ${shellQuote(value)}`);
    }
  }
  return words;
}

/** A value as a POSIX shell reads it back: bare when it is plain, else in single quotes. */
function shellQuote(value: string): string {
  return /^[\w.,:@%+=/-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

/** The plan about to be applied, on stderr (stdout is for the results). */
function showPlan(plan: Plan, io: Io): void {
  if (plan.changes.length > 0 || plan.refusals.length > 0) io.err(render(plan, "text", { color: io.color }));
}

/** What an interrupted apply did, and that running it again finishes the job. */
function interruptedSummary(outcome: Outcome): string {
  const items = outcome.results?.items ?? [];
  const notStarted = items.filter((item) => item.status === "skipped" && item.note?.startsWith("not started")).length;
  const applied = items.filter((item) => item.status === "applied").length;
  const failed = items.filter((item) => item.status === "failed").length;
  const where = outcome.resultsFile ? `; results written to ${outcome.resultsFile}` : "";
  return `Interrupted by ${outcome.interrupted}: ${applied} applied, ${failed} failed, ${notStarted} not started${where}. Run apply again to finish.`;
}

/**
 * Asks on the terminal. Ctrl-C, Ctrl-D (end of input) and a stop signal cancel like any answer but "yes":
 * nothing has been changed yet, so that is a plain exit 1, never a stack trace.
 */
async function confirm(signal: AbortSignal | undefined): Promise<void> {
  if (!process.stdin.isTTY) {
    throw new UsageError("apply asks before changing the account: pass --auto-approve when not running on a terminal");
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const cancel = new AbortController();
  // readline/promises rejects a pending question on close (Ctrl-D) and, with no listener, pauses on Ctrl-C.
  rl.on("SIGINT", () => cancel.abort());
  rl.on("close", () => cancel.abort());
  const abort = signal ? AbortSignal.any([signal, cancel.signal]) : cancel.signal;
  let answer = "";
  try {
    answer = await rl.question("Apply these changes? Only 'yes' is accepted: ", { signal: abort });
  } catch {
    // Cancelled: readline has already ended the prompt's line.
  } finally {
    rl.close();
  }
  if (answer.trim() !== "yes") throw new CancelledError("Apply cancelled: nothing was changed.");
}
