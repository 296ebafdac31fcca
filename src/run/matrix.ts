/**
 * `sitesync matrix` (DESIGN §7, issue 19 item 5): the accounts of a config as a GitHub Actions matrix
 * (`strategy.matrix: ${{ fromJSON(...) }}`), each leg running the Action for one account; with a change,
 * only the accounts it touches. Data only: the CLI prints it.
 */
import { accountsTouched } from "../change/accounts-touched.ts";
import { loadConfig } from "../config/load.ts";
import { ConfigError } from "../errors.ts";
import type { UnknownChangeReason } from "../model/config-change.ts";
import type { Env } from "./types.ts";

/** `{ include: [{ account }] }`: one leg per account; `account` is "" for a config without `accounts:`. */
export interface FleetMatrix {
  include: { account: string }[];
  /** With `--changed-since`: why every account is listed, when the change could not be read. */
  unknownChange?: UnknownChangeReason;
}

/** The matrix of `file`, loaded offline (no secret needed); only the touched accounts with `changedSince`. */
export async function fleetMatrix(file: string, env: Env, changedSince?: string): Promise<FleetMatrix> {
  const loaded = loadConfig(file, { env, unsetEnv: "warning" });
  if (!loaded.ok) throw new ConfigError(loaded.errors);
  const names = loaded.config.accounts?.map((a) => a.name) ?? [""];
  const legs = (list: readonly string[]) => list.map((account) => ({ account }));
  if (changedSince === undefined || loaded.config.accounts === undefined) return { include: legs(names) };
  const touched = await accountsTouched(changedSince, loaded.config, { env });
  // A change that cannot be read leaves out nothing (DESIGN §3: never fewer than the change touches).
  if (!touched.known) return { include: legs(names), unknownChange: touched.reason };
  return { include: legs(touched.accounts) };
}
