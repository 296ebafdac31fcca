/**
 * The exit codes of DESIGN §7, decided here and only here: for an error that ended a run (or stopped an
 * adapter before it), and for an Outcome that ran to its end.
 */
import { ApiError, SafetyError } from "../errors.ts";

export const ExitCode = {
  ok: 0,
  error: 1,
  changes: 2,
  applyFailed: 3,
  refused: 4,
} as const;

export function exitCodeOf(error: unknown): number {
  if (error instanceof SafetyError) return ExitCode.refused;
  // A listing that failed its integrity checks is a safety rail too: it never yields a plan (DESIGN §3, §5).
  if (error instanceof ApiError && error.kind === "integrity") return ExitCode.refused;
  return ExitCode.error;
}

/** What decides the exit code of a run, as the Outcome records it. */
export interface RunFacts {
  error?: unknown;
  refused: boolean;
  changes: number;
  /** `plan --detailed-exitcode`: changes exit 2. */
  detailedExitcode: boolean;
  /** Set once apply ran. */
  applied?: { aborted: boolean; failed: number; stale: number; unconverged: number };
}

export function exitCodeOfRun(facts: RunFacts): number {
  if (facts.error !== undefined) return exitCodeOf(facts.error);
  if (facts.refused) return ExitCode.refused;
  const applied = facts.applied;
  if (applied) {
    if (applied.aborted) return ExitCode.error;
    if (applied.failed > 0 || applied.unconverged > 0) return ExitCode.applyFailed;
    return applied.stale > 0 ? ExitCode.refused : ExitCode.ok;
  }
  return facts.detailedExitcode && facts.changes > 0 ? ExitCode.changes : ExitCode.ok;
}
