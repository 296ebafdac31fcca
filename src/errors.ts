/**
 * The few error classes of sitesync. Each carries a stable `code`; `exitCodeOf` (run/exit-code.ts) maps
 * them to the exit codes of DESIGN §7 in exactly one place. The larger families live in `errors/` and are
 * re-exported here, so every layer imports its errors from one module.
 */

export * from "./errors/api-error.ts";
export * from "./errors/config-error.ts";
export * from "./errors/usage-error.ts";

/** A safety rail refused the plan (DESIGN §3), or a saved plan is stale. Exit 4. */
export class SafetyError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "SafetyError";
    this.code = code;
  }
}

/** A bug in sitesync: an invariant that should never break. */
export class InternalError extends Error {
  readonly code = "INTERNAL";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InternalError";
  }
}

/** The user said no (or Ctrl-C, Ctrl-D at the prompt): nothing was changed, exit 1, no "error:" prefix. */
export class CancelledError extends Error {
  readonly code = "CANCELLED";
  constructor(message: string) {
    super(message);
    this.name = "CancelledError";
  }
}

/** The run that holds an account's apply lock, as it describes itself (run/account-lock.ts). */
export interface LockHolder {
  pid: number;
  /** ISO-8601: when it took the lock. */
  started: string;
}

/**
 * Another apply of the same account (address and key) runs on this machine: this one sent nothing (DESIGN §6).
 * Exit 1; render/ words it. `holder` is absent when the lock's holder could not say who it is.
 */
export class AccountBusyError extends Error {
  readonly code = "ACCOUNT_BUSY";
  readonly address: string;
  readonly holder: LockHolder | undefined;
  constructor(address: string, holder: LockHolder | undefined) {
    super(`another sitesync apply of ${address} is running${holder ? ` (pid ${holder.pid})` : ""}`);
    this.name = "AccountBusyError";
    this.address = address;
    this.holder = holder;
  }
}
