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
  /** Stopped gracefully by a signal: 128 + the signal's number, as shells report it. */
  SIGINT: 130,
  SIGTERM: 143,
} as const;

/** The signals a run stops gracefully on (the edge turns them into the run's stop signal). */
export type StopSignal = "SIGINT" | "SIGTERM";

/** The signal name an aborted stop signal carries as its reason, if it was aborted by one. */
export function stopSignalOf(signal: AbortSignal | undefined): StopSignal | undefined {
  return signal?.aborted && (signal.reason === "SIGINT" || signal.reason === "SIGTERM") ? signal.reason : undefined;
}

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
  /** `export --update` found lines it cannot change safely, and changed nothing. */
  updateRefused?: boolean;
  /** The run was stopped by this signal (after applying what was in flight, or while reading). */
  interrupted?: StopSignal | undefined;
  /** Set once apply ran. */
  applied?: { aborted: boolean; failed: number; skipped: number; unconverged: number };
}

export function exitCodeOfRun(facts: RunFacts): number {
  if (facts.interrupted) return ExitCode[facts.interrupted];
  if (facts.error !== undefined) return exitCodeOf(facts.error);
  if (facts.refused) return ExitCode.refused;
  if (facts.updateRefused) return ExitCode.error;
  const applied = facts.applied;
  if (applied) {
    if (applied.aborted) return ExitCode.error;
    if (applied.failed > 0 || applied.unconverged > 0) return ExitCode.applyFailed;
    return applied.skipped > 0 ? ExitCode.refused : ExitCode.ok;
  }
  return facts.detailedExitcode && facts.changes > 0 ? ExitCode.changes : ExitCode.ok;
}

/** How bad each exit code is: a run of many accounts exits with its worst account's (DESIGN §2). */
const RANK: readonly number[] = [
  ExitCode.ok,
  ExitCode.changes,
  ExitCode.refused,
  ExitCode.applyFailed,
  ExitCode.error,
  ExitCode.SIGTERM,
  ExitCode.SIGINT,
];

/** The worst of `codes` (0 when there is none). */
export function worstExitCode(codes: readonly number[]): number {
  return codes.reduce((worst, code) => (RANK.indexOf(code) > RANK.indexOf(worst) ? code : worst), ExitCode.ok as number);
}
