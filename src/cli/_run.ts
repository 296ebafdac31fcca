/** What the commands share around the one orchestrator: their hooks into it and the end of its Outcome. */
import type { RequestLogEntry, ServerWait } from "../api/types.ts";
import { formatDiagnostic } from "../errors.ts";
import { printable } from "../model/printable.ts";
import type { Plan } from "../plan/types.ts";
import { waitLine } from "../render/index.ts";
import type { Outcome, RunHooks } from "../run/types.ts";
import { reportError } from "./_errors.ts";
import type { Io } from "./_io.ts";

/** Config warnings on stderr (not with --quiet); with --verbose, one line per HTTP request. */
export function cliHooks(io: Io, flags: { quiet?: boolean | undefined; verbose?: boolean | undefined }): RunHooks {
  return {
    onLoad(result) {
      if (!flags.quiet) for (const warning of result.warnings) io.err(printable(formatDiagnostic(warning)));
    },
    ...(flags.verbose ? { onRequest: (entry: RequestLogEntry) => io.err(formatRequest(entry)) } : {}),
    // Always said (not only with --verbose): a run's time is the plan's estimate plus these waits.
    ...(flags.quiet ? {} : { onWait: (wait: ServerWait) => io.err(waitLine(wait)) }),
  };
}

export function formatRequest(entry: RequestLogEntry): string {
  const status = entry.status ?? entry.error ?? "-";
  const rate = entry.rateRemaining === undefined ? "" : ` (rate ${entry.rateRemaining}/${entry.rateLimit ?? "?"} left)`;
  const attempt = entry.attempt > 1 ? ` [attempt ${entry.attempt}]` : "";
  return printable(`${entry.method} ${entry.url} ${status} ${Math.round(entry.ms)}ms${rate}${attempt}`);
}

/** Says why the plan was refused (safety rails), after it was shown. */
export function reportRefusals(plan: Plan, io: Io): void {
  io.err(`error: ${plan.refusals.map((r) => printable(r.message)).join("\n")}`);
}

/** Reports the error that ended the run, if one did, and returns the run's exit code. */
export function conclude(outcome: Outcome, io: Io): number {
  if (outcome.error !== undefined) reportError(outcome.error, io);
  return outcome.exitCode;
}
