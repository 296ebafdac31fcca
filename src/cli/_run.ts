/** What the commands share around the one orchestrator: their hooks into it and the printing of its sections. */
import type { LearnedRate, RequestLogEntry, ServerWait } from "../api/types.ts";
import { formatDiagnostic } from "../errors.ts";
import { printable } from "../model/printable.ts";
import { itemNote, learnedRateLine, renderOutcome, type Sections, waitLine } from "../render/index.ts";
import type { TextContext } from "../render/outcome-text.ts";
import type { Outcome, RunHooks } from "../run/types.ts";
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

/** Prints the Outcome's sections (summary to stdout, notes to stderr) and returns the run's exit code. */
export function show(outcome: Outcome, io: Io, context: Omit<TextContext, "color" | "json">): number {
  print(renderOutcome(outcome, { for: "terminal", ...context, color: io.color && context.format === "text", json: io.redactor.json }), io);
  return outcome.exitCode;
}

function print(sections: Sections, io: Io): void {
  if (sections.summary) io.out(sections.summary);
  for (const note of sections.notes) io.err(note);
}
