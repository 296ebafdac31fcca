/**
 * The read step of a plan that follows the change (DESIGN §3 "Plans that follow the change", §8): the change
 * between a base revision and the config now, then only the touched names looked up (at most k + 2
 * requests), or the account read in full with the causes: `--full`, a change to defaults/policy/URLs,
 * website lookups that would cost more than the full read, or no change known (the base does not load or
 * exist). Project lookups over their budget read the projects alone in full.
 * A config of many files is followed file by file as the base commit holds them, and a fleet account by
 * account (change/change-since.ts).
 */
import { lookUpProjects, lookUpWebsites } from "../api/lookup.ts";
import type { Client } from "../api/types.ts";
import { changeSince } from "../change/change-since.ts";
import type { BaseMemo } from "../change/load-base.ts";
import { namesToRead } from "../change/names-to-read.ts";
import type { Env } from "../config/interpolate.ts";
import type { Config } from "../config/types.ts";
import type { ChangeResult, ConfigChange, FullReadCause } from "../model/config-change.ts";
import type { Live } from "../model/state.ts";
import type { PlanChange } from "../plan/follow-change.ts";
import type { PlanSince } from "../plan/types.ts";
import { readLive } from "./read-live.ts";

/** Which change a plan follows: a base revision as given, and the commit it named when a plan recorded one. */
export interface ChangeBase {
  /** As the user gave it (`HEAD~1`, `origin/main`, a commit): it names the base in every output. */
  ref: string;
  /** The commit to read the base at: a saved or reviewed plan's, so that a re-plan follows the very same change. */
  commit?: string | undefined;
  /** `--full`: follow the change (send its write-only edits) but read the account in full. */
  full?: boolean | undefined;
  /**
   * Send nothing because of the change (the re-plan of `--verify`): what the change edited was sent, and
   * cannot be read back to check.
   */
  sendNothing?: boolean | undefined;
}

export interface ChangeRead {
  live: Live;
  change: PlanChange;
}

/** The base of a plan that followed a change, to plan again over the same change (saved plan, review). */
export function baseOf(since: PlanSince | undefined): ChangeBase | undefined {
  if (since === undefined) return undefined;
  if (!since.known) return { ref: since.ref };
  const full = since.read === "full" && since.because.includes("full-flag");
  return { ref: since.ref, ...(since.commit ? { commit: since.commit } : {}), ...(full ? { full } : {}) };
}

/** Reads what the plan of `config` following the change since `base` needs. */
export async function readForChange(
  config: Config,
  client: Client,
  base: ChangeBase,
  { env, bases }: { env: Env; bases?: BaseMemo | undefined },
): Promise<ChangeRead> {
  const options = { env, ...(bases ? { bases } : {}) };
  const result = relabel(await changeSince(base.commit ?? base.ref, config, options), base.ref);
  if (!result.known) {
    const file = result.detail?.file;
    const change: PlanChange = { known: false, ref: base.ref, reason: result.reason, ...(file ? { file } : {}) };
    return { live: await readLive(client, config), change };
  }
  const change = base.sendNothing ? { ...result.change, websites: result.change.websites.map((w) => ({ ...w, send: [] })) } : result.change;
  const causes: FullReadCause[] = [...change.fullRead, ...(base.full ? (["full-flag"] as const) : [])];
  if (causes.length > 0) return full(config, client, change, causes);
  const names = namesToRead(change, config.policy);
  const [websites, projects] = await Promise.all([
    lookUpWebsites(client, names.websites),
    config.projects === undefined ? undefined : lookUpProjects(client, names.projects),
  ]);
  if (websites.read === "full-instead") return full(config, client, change, [websites.reason]);
  if (projects === undefined) return { live: { websites: websites.items }, change: { known: true, change, read: "scoped" } };
  // Projects whose lookups would cost more than their listing are read in full, and the plan stays scoped to
  // the touched names (plan narrows the listing to them): a small projects listing never costs the websites'
  // full read, and a touched project is never left unplanned.
  const liveProjects = projects.read === "scoped" ? projects.items : await client.projects.readAll();
  return { live: { websites: websites.items, projects: liveProjects }, change: { known: true, change, read: "scoped" } };
}

async function full(config: Config, client: Client, change: ConfigChange, because: FullReadCause[]): Promise<ChangeRead> {
  return { live: await readLive(client, config), change: { known: true, change, read: "full", because } };
}

/** The change read at a recorded commit still names the base as the user gave it: the plans compare equal. */
function relabel(result: ChangeResult, ref: string): ChangeResult {
  if (!result.known) return { ...result, ref };
  return { known: true, change: { ...result.change, ref } };
}
