import { createInterface } from "node:readline/promises";
import { CancelledError, UsageError } from "../errors.ts";
import type { Plan } from "../plan/types.ts";
import { render } from "../render/index.ts";
import { readSavedPlan } from "../run/plan-file.ts";
import { run } from "../run/run.ts";
import type { RunHooks } from "../run/run-hooks.ts";
import { toRunSettings } from "../run/to-run-settings.ts";
import { argsOf, cliSettings, PLANNING_FLAGS } from "./_args.ts";
import { command } from "./_command.ts";
import type { Io } from "./_io.ts";
import type { CommandLine } from "./_parse.ts";
import { progressReporter } from "./_progress.ts";
import { cliHooks, show, withEvents } from "./_run.ts";

export default command({
  meta: { name: "apply", description: "Make the account match the config: creates, then updates, then deletes." },
  args: {
    plan: {
      type: "positional",
      required: false,
      description: "A plan saved by `sitesync plan --out` (else plan now)",
      valueHint: "plan.json",
    },
    ...argsOf("apply"),
  },
  examples: [
    "sitesync apply                 # plan, show it, ask, apply",
    "sitesync apply --auto-approve --results results.json   # in CI",
    "sitesync apply plan.json       # show what a fresh plan confirms of a saved plan, ask, apply it; stale items are skipped (exit 4)",
    "sitesync apply plan.json --auto-approve   # the same in CI: without a terminal, apply always needs --auto-approve",
    "sitesync apply --reviewed plan.json   # plan again, apply only what plan.json also holds (exit 4 for the rest)",
    "sitesync apply --exclude 'legacy-*'   # plan and apply all but the legacy sites",
    "sitesync apply --changed-since HEAD~1 # apply what the last commit changed, reading only what it touches",
    "sitesync apply --auto-approve --events events.jsonl   # the results as usual, and every change's start and end as JSON lines",
  ],
  async run(flags, { io, env, lists, given, signal }) {
    const settings = toRunSettings(cliSettings("apply", flags, lists), "apply");
    if (flags.plan && flags.reviewed) {
      throw new UsageError(`give either a saved plan (${flags.plan}) or --reviewed ${flags.reviewed}, not both`);
    }
    const saved = flags.plan ? readSavedPlan(flags.plan) : undefined;
    if (saved) rejectPlanningFlags(given, flags as CommandLine["values"], lists);
    const reviewed = flags.reviewed ? readSavedPlan(flags.reviewed) : undefined;
    const asks = !flags["auto-approve"];
    // One rule for a fresh plan and a saved one (DESIGN §7): apply asks, and where nobody can answer it
    // refuses before any request, so a script that forgot the flag fails at once, not after reading the account.
    if (asks && !process.stdin.isTTY) throw new UsageError(NO_TERMINAL);
    const plan = saved ?? reviewed;
    const planGiven = saved ? { saved } : reviewed ? { reviewed } : undefined;
    const progress = progressReporter(io, Boolean(flags.quiet));
    // What is about to be applied is shown before the question: for a saved or reviewed plan, what a fresh
    // plan confirms of it. With --auto-approve a saved plan is applied without showing it again, and with
    // --quiet a fresh one too: only the results and errors are printed.
    const shows = asks || (!plan && !flags.quiet);
    const hooks: RunHooks = {
      ...cliHooks(io, flags),
      ...(shows ? { onPlan: (checked: Plan) => showPlan(checked, io) } : {}),
      ...(asks ? { approve: () => confirm(signal) } : {}),
      ...(progress.onItem ? { onItem: progress.onItem } : {}),
    };
    const request = {
      command: "apply" as const,
      config: plan && !given.has("config") ? plan.configFile : flags.config,
      env,
      settings,
      given: planGiven,
      redactor: io.redactor,
      signal,
    };
    const outcome = await withEvents(io, flags, "apply", hooks, (all) => run(request, all));
    progress.finish();
    return show(outcome, io, { format: flags.format, quiet: Boolean(flags.quiet), shownPlan: shows });
  },
});

/** A saved plan is applied as reviewed: flags that would change what it does belong to `plan`. */
function rejectPlanningFlags(given: ReadonlySet<string>, values: CommandLine["values"], lists: CommandLine["lists"]): void {
  // `--account` is not among them: it picks which account of a fleet runs, and the run checks it names the plan's.
  const planning = PLANNING_FLAGS.filter((flag) => given.has(flag));
  if (planning.length > 0) {
    const flags = planning.map((f) => `--${f}`).join(" ");
    // The suggested command repeats each flag with its value (`--target 'shop-*'`), so that it can be run as it is.
    const command = planning.flatMap((name) => flagWords(name, values[name], lists[name])).join(" ");
    throw new UsageError(`${flags} changes what is planned, not a saved plan: run \`sitesync plan ${command} --out plan.json\` again`);
  }
}

/** A flag as it was given, to be typed again: every value of a repeatable one. */
function flagWords(name: string, value: string | boolean | undefined, list: readonly string[] | undefined): string[] {
  if (list !== undefined) return list.map((item) => `--${name} ${shellQuote(item)}`);
  return typeof value === "string" ? [`--${name} ${shellQuote(value)}`] : [`--${name}`];
}

/** A value as a POSIX shell reads it back: bare when it is plain, else in single quotes. */
function shellQuote(value: string): string {
  return /^[\w.,:@%+=/-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

/** The plan about to be applied, on stderr (stdout is for the results). */
function showPlan(plan: Plan, io: Io): void {
  if (plan.changes.length > 0 || plan.refusals.length > 0) io.err(render(plan, "text", { color: io.color }));
}

const NO_TERMINAL =
  "apply asks before changing the account, and there is no terminal to ask on: pass --auto-approve to apply without asking (CI, cron, scripts); nothing was sent";

/**
 * Asks on the terminal (apply refuses to start without one unless --auto-approve). Ctrl-C, Ctrl-D (end of input) and a stop signal cancel like any answer but "yes":
 * nothing has been changed yet, so that is a plain exit 1, never a stack trace.
 */
async function confirm(signal: AbortSignal | undefined): Promise<void> {
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
