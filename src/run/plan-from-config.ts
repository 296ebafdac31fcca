/**
 * The planning step of a run (DESIGN §1): config → live → the pure `plan`, and the secret values `apply`
 * needs, which the plan itself never holds. A secret the config does not set never stops a plan: the change
 * that would send it is flagged (`needs`), and `apply` refuses that change (DESIGN §2, §7).
 */
import type { Client } from "../api/types.ts";
import type { BaseMemo } from "../change/load-base.ts";
import type { Env } from "../config/interpolate.ts";
import type { Config } from "../config/types.ts";
import type { Live } from "../model/state.ts";
import { ASSUMED_RATE } from "../plan/estimate.ts";
import { plan } from "../plan/plan.ts";
import type { Plan, Selection } from "../plan/types.ts";
import { type ChangeBase, readForChange } from "./read-for-change.ts";
import { readLive } from "./read-live.ts";

/** How to plan, beyond the config: the planning settings, and the run's memo of change bases. */
export interface PlanSettings {
  /** `--sync-write-only`. */
  syncWriteOnly?: boolean;
  /** `--max-deletes N`, overriding `policy.max_deletes`. */
  maxDeletes?: number;
  /** `--allow-empty`. */
  allowEmpty?: boolean;
  /** The window the server's rate limit counts in, for the estimate of a server that sends no rate headers (default 60 s). */
  rateWindowMs?: number | undefined;
  /** `--target` / `--exclude`: a partial plan of only the websites and projects these globs select. */
  selection?: Selection | undefined;
  /**
   * `--changed-since REF` (and `--full`), the Action's base: follow the change since this base (DESIGN §3),
   * reading only the names it touches when it can.
   */
  changedSince?: ChangeBase | undefined;
  /** The run's change bases, loaded once for all its accounts (run/scope.ts). */
  bases?: BaseMemo | undefined;
}

/** Reads the live account and plans the config against it; the plan records which account it read. */
export async function planFromConfig(config: Config, client: Client, settings: PlanSettings = {}, env: Env = {}): Promise<Plan> {
  return (await planWithLive(config, client, settings, env)).plan;
}

/** `planFromConfig`, with the live account it read (to tell a saved plan's finished work from a forgery). */
export async function planWithLive(
  config: Config,
  client: Client,
  settings: PlanSettings = {},
  env: Env = {},
): Promise<{ plan: Plan; live: Live }> {
  // Even a partial plan reads every page: the API can only narrow a listing by `search`, a substring that
  // cannot express a glob, and only a whole listing can be checked against `meta.total` (DESIGN §5). The
  // selection is applied in `plan`, which stays pure. Only a change narrows the read, to the names it touches.
  const readsBefore = client.stats().sent.GET ?? 0;
  const followed = settings.changedSince
    ? await readForChange(config, client, settings.changedSince, { env, bases: settings.bases })
    : undefined;
  const live = followed?.live ?? (await readLive(client, config));
  const reads = (client.stats().sent.GET ?? 0) - readsBefore;
  const desired = { websites: config.websites, ...(config.projects ? { projects: config.projects } : {}), policy: config.policy };
  const planned = plan(desired, live, {
    configFile: config.file,
    configDigest: config.digest,
    target: client.target,
    account: config.account?.name,
    syncWriteOnly: settings.syncWriteOnly ?? false,
    allowEmpty: settings.allowEmpty ?? false,
    ...(settings.maxDeletes === undefined ? {} : { maxDeletes: settings.maxDeletes }),
    ...(settings.selection === undefined ? {} : { selection: settings.selection }),
    ...(followed ? { change: followed.change } : {}),
    reads,
    // The limit, window and budget the run knows now (DESIGN §5). A server that sent no rate headers is not
    // paced: the real API's limit is assumed, from a fresh window.
    rate: client.stats().rate ?? {
      ...ASSUMED_RATE,
      ...(settings.rateWindowMs ? { windowMs: settings.rateWindowMs } : {}),
      budget: { remaining: ASSUMED_RATE.limit, refillsInMs: 0 },
    },
  });
  return { plan: planned, live };
}

/** `ApplyOptions.passwordOf` for a config: the password of each website, by normalized domain. */
export function passwordsOf(config: Config): (domain: string) => string | undefined {
  const passwords = new Map(config.websites.map((w) => [w.domain, w.password]));
  return (domain) => passwords.get(domain);
}
