import type { Change } from "../plan/types.ts";

export type ItemStatus = "applied" | "failed" | "skipped";

/** What happened to one planned change. JSON-serializable; never holds a secret. */
export interface ItemResult {
  change: Change;
  status: ItemStatus;
  /** Website id after a create (or the id adopted after an ambiguous POST). */
  id?: number;
  /** Why it was skipped, or a note on how it was applied (adopted, already gone). */
  note?: string;
  error?: { message: string; status?: number; fieldErrors?: Record<string, string[]> };
}

export interface ApplyCounts {
  applied: number;
  failed: number;
  skipped: number;
  unchanged: number;
}

export interface ApplyResult {
  items: ItemResult[];
  counts: ApplyCounts;
  /** Set when a 401/403 or a bad key ended the run early: every later request would fail the same way. */
  aborted?: string;
}

/** Options of {@link apply}. */
export interface ApplyOptions {
  /**
   * The secret values the plan does not hold: the password of a website, by normalized domain. `apply`
   * sends a password only where the plan says so (DESIGN §3: the plan itself never holds a secret).
   */
  passwordOf: (domain: string) => string | undefined;
  /** Called once per finished change, for progress output. */
  onItem?: (result: ItemResult, done: number, total: number) => void;
  /** Once aborted (SIGINT, SIGTERM), changes not yet started are skipped as "not started"; started ones finish. */
  stop?: AbortSignal;
}
