/** What the commands share around the one orchestrator: their hooks into it and the printing of its sections. */
import pkg from "../../package.json" with { type: "json" };
import type { LearnedRate, RequestLogEntry, ServerWait } from "../api/types.ts";
import { formatDiagnostic } from "../errors.ts";
import { printable } from "../model/printable.ts";
import { itemNote, learnedRateLine, renderOutcome, type Sections, waitLine } from "../render/index.ts";
import type { TextContext } from "../render/outcome-text.ts";
import type { RunHooks } from "../run/run-hooks.ts";
import type { Outcome } from "../run/types.ts";
import { eventFile, eventStream, mergeHooks } from "./_events.ts";
import type { Io } from "./_io.ts";
import { readReporter } from "./_progress.ts";

/** Config warnings on stderr (not with --quiet); with --verbose, one line per HTTP request. */
export function cliHooks(io: Io, flags: { quiet?: boolean | undefined; verbose?: boolean | undefined }): RunHooks {
  const onProgress = readReporter(io, Boolean(flags.quiet));
  return {
    onLoad(result) {
      if (!flags.quiet) for (const warning of result.warnings) io.err(printable(formatDiagnostic(warning)));
    },
    ...(flags.verbose ? { onRequest: (entry: RequestLogEntry) => io.err(formatRequest(entry)) } : {}),
    // Always said (not only with --verbose): a run's time is the plan's estimate plus these waits.
    ...(flags.quiet ? {} : { onWait: (wait: ServerWait) => io.err(waitLine(wait)) }),
    ...(onProgress ? { onProgress } : {}),
    ...(flags.quiet ? {} : { onRateLearned: (learned: LearnedRate) => io.err(learnedRateLine(learned)) }),
    noteOf: itemNote,
  };
}

function formatRequest(entry: RequestLogEntry): string {
  const status = entry.status ?? entry.error ?? "-";
  const rate = entry.rateRemaining === undefined ? "" : ` (rate ${entry.rateRemaining}/${entry.rateLimit ?? "?"} left)`;
  const attempt = entry.attempt > 1 ? ` [attempt ${entry.attempt}]` : "";
  return printable(`${entry.method} ${entry.url} ${status} ${Math.round(entry.ms)}ms${rate}${attempt}`);
}

/** The output flags of plan and apply: `--format events` prints the run's events on stdout; `--events FILE` writes them there too. */
interface EventFlags {
  format?: string | undefined;
  events?: string | undefined;
}

/**
 * Runs `go` with `hooks`, and with the run's events written as they happen when the flags ask for them
 * (DESIGN §7); the last event, `outcome`, follows the run.
 */
export async function withEvents(
  io: Io,
  flags: EventFlags,
  command: string,
  hooks: RunHooks,
  go: (hooks: RunHooks) => Promise<Outcome>,
): Promise<Outcome> {
  const file = flags.events === undefined ? undefined : eventFile(flags.events);
  const writers = [...(flags.format === "events" ? [io.out] : []), ...(file ? [file.write] : [])];
  if (writers.length === 0) return go(hooks);
  try {
    const write = (line: string) => {
      for (const writer of writers) writer(line);
    };
    const stream = eventStream({ command, version: pkg.version, redactor: io.redactor, write });
    const outcome = await go(mergeHooks(hooks, stream.hooks));
    stream.finish(outcome);
    return outcome;
  } finally {
    file?.close();
  }
}

/**
 * Prints the Outcome's sections (summary to stdout, notes to stderr) and returns the run's exit code. With
 * `--format events` stdout holds the events alone: only the notes are printed.
 */
export function show(outcome: Outcome, io: Io, context: Omit<TextContext, "color" | "json" | "format"> & { format: string }): number {
  const format = context.format === "json" || context.format === "markdown" ? context.format : "text";
  const sections = renderOutcome(outcome, {
    for: "terminal",
    ...context,
    format,
    color: io.color && format === "text",
    json: io.redactor.json,
  });
  print(context.format === "events" ? { ...sections, summary: "" } : sections, io);
  return outcome.exitCode;
}

function print(sections: Sections, io: Io): void {
  if (sections.summary) io.out(sections.summary);
  for (const note of sections.notes) io.err(note);
}
