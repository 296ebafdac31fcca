/**
 * Where an adapter learns what happens while a run goes on (DESIGN §1): data only, never words. The CLI's
 * progress lines, the Action's log and the event stream (`--format events`, DESIGN §7) are all made from these.
 * `account` is "" for a config without `accounts:`.
 */
import type { LearnedRate, ReadProgress, RequestLogEntry, ServerWait } from "../api/types.ts";
import type { ItemResult } from "../apply/types.ts";
import type { LoadResult } from "../config/types.ts";
import type { Change, Plan } from "../plan/types.ts";
import type { AccountRun } from "./types.ts";

export interface RunHooks {
  /** The config was loaded (its secrets already redacted): warnings, or errors before the run ends. */
  onLoad?(result: LoadResult): void;
  onRequest?(entry: RequestLogEntry): void;
  /**
   * A server asked for a pause that the run waits out (within `--max-wait`). Accounts on one server run one
   * after the other, so a wait of that server's shared budget is the account it serves then.
   */
  onWait?(wait: ServerWait, account: string): void;
  /** How a read goes: pages read of total, a re-read and why, a wait for the rate budget (DESIGN §5). */
  onProgress?(event: ReadProgress, account: string): void;
  /** A server's rate-limit window was learned (once per server; never when `--rate-window` says it). */
  onRateLearned?(learned: LearnedRate, account: string): void;
  /** An account's step starts, before its first request: the addresses its file names. */
  onAccountStart?(account: string, target: Plan["target"]): void;
  /** An account's plan was made (or a saved plan checked); `skipped` holds the changes not applied on purpose. */
  onPlan?(plan: Plan, skipped: readonly ItemResult[], account: string): void | Promise<void>;
  /** Called before applying anything; throwing cancels the run. Accounts are asked one at a time. */
  approve?(plan: Plan, account: string): Promise<void>;
  /** A change is about to be sent; `onItem` says how it ended. A change never started has no start. */
  onItemStart?(change: Change, account: string): void;
  /** An item finished (accounts on different servers apply side by side: their items interleave). */
  onItem?(item: ItemResult, done: number, total: number, account: string): void;
  /** An account's run ended: its plan, results or error, and its exit code, as the Outcome holds them. */
  onAccountEnd?(run: AccountRun): void;
  /** The words of an item's reason for the results file (render/'s `itemNote`); without it the file holds codes only. */
  noteOf?(item: ItemResult): string | undefined;
}
