/**
 * `sitesync matrix` (DESIGN §7, issue 19 item 5): the accounts of a config as a GitHub Actions matrix
 * (`strategy.matrix: ${{ fromJSON(...) }}`), each leg running the Action for one account; with a change,
 * only the accounts it touches. Data only: the CLI prints it.
 */
import { accountsTouched } from "../change/accounts-touched.ts";
import { DEFAULT_KEY_ENVS } from "../config/accounts.ts";
import { loadConfig } from "../config/load.ts";
import type { ConfigAccount } from "../config/types.ts";
import { ConfigError } from "../errors.ts";
import type { UnknownChangeReason } from "../model/config-change.ts";
import type { Env } from "./types.ts";

/**
 * One leg, keyed as the workflow reads it (`matrix.api_key_env`): the account ("" for a config without
 * `accounts:`) and the names of the variables holding its keys, which the workflow's secrets are named after,
 * so that a leg picks its own account's secret (`secrets[matrix.api_key_env]`), never another's.
 */
interface MatrixLeg {
  account: string;
  api_key_env: string;
  projects_api_key_env: string;
}

/** `{ include: [leg] }`: one leg per account. */
export interface FleetMatrix {
  include: MatrixLeg[];
  /** With `--changed-since`: why every account is listed, when the change could not be read. */
  unknownChange?: UnknownChangeReason;
}

type LegAccount = Pick<ConfigAccount, "name" | "apiKeyEnv" | "projectsApiKeyEnv">;

const leg = (a: LegAccount): MatrixLeg => ({ account: a.name, api_key_env: a.apiKeyEnv, projects_api_key_env: a.projectsApiKeyEnv });

/** The matrix of `file`, loaded offline (no secret needed); only the touched accounts with `changedSince`. */
export async function fleetMatrix(file: string, env: Env, changedSince?: string): Promise<FleetMatrix> {
  const loaded = await loadConfig(file, { env, unsetEnv: "warning" });
  if (!loaded.ok) throw new ConfigError(loaded.errors);
  const accounts: readonly LegAccount[] = loaded.config.accounts ?? [{ name: "", ...DEFAULT_KEY_ENVS }];
  if (changedSince === undefined || loaded.config.accounts === undefined) return { include: accounts.map(leg) };
  const touched = await accountsTouched(changedSince, loaded.config, { env });
  // A change that cannot be read leaves out nothing (DESIGN §3: never fewer than the change touches).
  if (!touched.known) return { include: accounts.map(leg), unknownChange: touched.reason };
  return { include: accounts.filter((a) => touched.accounts.includes(a.name)).map(leg) };
}
