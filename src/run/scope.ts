/**
 * What one run builds for itself and shares among its accounts (DESIGN §1): never a field of the request,
 * which holds only what the edge said.
 */
import type { Redactor } from "../api/redact.ts";
import type { Scheduler } from "../api/scheduler.ts";
import type { BaseMemo } from "../change/load-base.ts";
import type { Config } from "../config/types.ts";
import type { RunHooks } from "./run-hooks.ts";
import type { Env, GivenPlan, KeyVariables, RunCommand, RunRequest, RunSecrets, RunSettings } from "./types.ts";

export interface RunScope {
  readonly command: RunCommand;
  readonly settings: RunSettings;
  readonly env: Env;
  readonly given: GivenPlan | undefined;
  readonly redactor: Redactor;
  readonly signal: AbortSignal | undefined;
  readonly hooks: RunHooks;
  /** One scheduler per server origin: accounts on one server share its rate budget (DESIGN §6). */
  readonly schedulers: Map<string, Scheduler>;
  /** The change's base, loaded once for every account, which compares its own slice of it (DESIGN §3). */
  readonly bases: BaseMemo;
  /**
   * The account each server serves now, by the key of its scheduler: accounts on one server run one after the
   * other (run-accounts.ts), so what the shared scheduler reports (a wait, a learned window) is that account's.
   */
  readonly serving: Map<string, string>;
}

/** One account as its step runs it. */
export interface AccountSpec {
  /** Its name under `accounts:`; "" for a config without `accounts:`. */
  name: string;
  /** Its own config (websites, projects, policy, addresses); none for `export`, which reads an account from settings. */
  config: Config | undefined;
  /** Its websites address, as checked before the run (run/client-for.ts); "" when none is known yet. */
  address: string;
  keys: KeyVariables;
  /** Its keys: an adapter's when it runs this account alone, else its variables' (DESIGN §2). */
  secrets: RunSecrets;
}

export function openScope(request: RunRequest, hooks: RunHooks): RunScope {
  return {
    command: request.command,
    settings: request.settings ?? {},
    env: request.env,
    given: request.given,
    redactor: request.redactor,
    signal: request.signal,
    hooks,
    schedulers: new Map(),
    bases: new Map(),
    serving: new Map(),
  };
}
