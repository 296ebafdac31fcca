/**
 * The accounts a run runs (DESIGN §2 "Many files, many accounts", §6): a config without `accounts:` is a
 * fleet of one named "". Everything that could stop the run is checked here, for every account, before the
 * first request of any of them: names, settings that fit one account only, addresses, two entries that are
 * one account of a server. Each account then runs its step; accounts on different servers side by side,
 * accounts on one server one after the other (they share its budget: the throttle counts per client IP).
 */
import { accountConfig, DEFAULT_KEY_ENVS } from "../config/accounts.ts";
import { didYouMean } from "../config/did-you-mean.ts";
import type { Config, ConfigAccount } from "../config/types.ts";
import { AccountSelectionError, type OneAccountSetting } from "../errors.ts";
import { checkKeys, keysOf } from "./account-keys.ts";
import { checkAccountUrls } from "./client-for.ts";
import type { AccountSpec, RunScope } from "./scope.ts";
import type { KeyVariables, RunSecrets } from "./types.ts";

/** The accounts to run, in the order the root file lists them, each with its config and keys. */
export function accountSpecs(scope: RunScope, config: Config, secrets: RunSecrets = {}): AccountSpec[] {
  const accounts = config.accounts?.map((account) => ({
    name: account.name,
    keys: keyVariables(account),
    config: accountConfig(config, account),
  })) ?? [{ name: "", keys: { ...DEFAULT_KEY_ENVS }, config }];
  const chosen = selected(accounts, namesToRun(scope, config));
  checkOneAccount(scope, chosen.length, accounts);
  // Every command that reads an account reads its projects when its config manages them (DESIGN §5).
  const addressed = chosen.map((account) => ({ ...account, readsProjects: account.config.projects !== undefined }));
  // A bad or contradicted address in any account is known before the first request: no account writes.
  const addresses = checkAccountUrls(scope.settings, scope.env, addressed);
  const specs = addressed.map(({ readsProjects, ...account }) => ({
    ...account,
    address: addresses.get(account.name)?.websites ?? "",
    // An adapter's keys (the Action's api-key, the library's secrets) are one account's: the one run alone.
    secrets: keysOf(chosen.length === 1 ? secrets : {}, scope.env, account.keys),
    readsProjects,
  }));
  // Every account's keys are secrets before the first request of any of them, and every key it will need is
  // set: an account whose key is missing stops the run before any account reads or writes, like an address.
  for (const spec of specs) scope.redactor.add([spec.secrets.apiKey, spec.secrets.projectsApiKey]);
  checkKeys(specs);
  const twins = config.accounts && pruningTwins(config.accounts, scope);
  if (twins) throw new AccountSelectionError({ code: "same-account", ...twins });
  return specs.map(({ readsProjects: _reads, ...spec }) => spec);
}

function keyVariables({ apiKeyEnv, projectsApiKeyEnv }: KeyVariables): KeyVariables {
  return { apiKeyEnv, projectsApiKeyEnv };
}

/**
 * The accounts named: `--account`, or the one a saved plan was made for (`apply plan.json` runs that account
 * alone: it is the plan of one account, and another `--account` would not be the plan that was reviewed).
 */
function namesToRun({ settings, given }: RunScope, config: Config): readonly string[] {
  const names = settings.accounts ?? [];
  if (names.length > 0 && config.accounts === undefined) throw new AccountSelectionError({ code: "no-accounts", name: names[0] ?? "" });
  const planned = given && "saved" in given ? given.saved.account : undefined;
  if (planned === undefined) return names;
  if (names.some((name) => name !== planned)) throw new AccountSelectionError({ code: "plan-account", planned, given: [...names] });
  return [planned];
}

/** The accounts `--account` names (every one when none), or an error with a did-you-mean. */
function selected<T extends { name: string }>(accounts: readonly T[], names: readonly string[]): T[] {
  if (names.length === 0) return [...accounts];
  const known = accounts.map((a) => a.name);
  for (const name of names) {
    if (!known.includes(name)) throw new AccountSelectionError({ code: "unknown", name, known, guess: didYouMean(name, known) });
  }
  return accounts.filter((a) => names.includes(a.name));
}

/** Settings that name one account's address or plan, with several accounts selected. */
function checkOneAccount({ settings, given }: RunScope, count: number, accounts: readonly { name: string }[]): void {
  if (count <= 1) return;
  const one = (setting: OneAccountSetting) => new AccountSelectionError({ code: "one-only", setting, known: accounts.map((a) => a.name) });
  if (settings.websitesUrl !== undefined) throw one("websites-url");
  if (settings.projectsUrl !== undefined) throw one("projects-url");
  if (settings.planFile !== undefined) throw one("out");
  if (given && "saved" in given) throw one("saved-plan");
  if (given && "reviewed" in given) throw one("reviewed-plan");
}

/**
 * Two accounts of the config that are one account of a server (the same websites address, the same key set
 * in the environment), one of them pruning: each run of it would delete the other's websites. Compared over
 * every account whose key is set, selected or not (`--account eu` alone would prune us's websites too).
 */
function pruningTwins(accounts: readonly ConfigAccount[], { settings, env }: RunScope): { pruning: string; other: string } | undefined {
  // `--websites-url` points the one selected account elsewhere than its file says: nothing to compare.
  if (settings.websitesUrl !== undefined) return undefined;
  const keyed = accounts.flatMap((account) => {
    const url = addressOf(account, env);
    return url && env[account.apiKeyEnv] ? [{ account, url, key: env[account.apiKeyEnv] }] : [];
  });
  for (const pruning of keyed.filter((k) => k.account.policy.prune)) {
    const other = keyed.find((k) => k !== pruning && k.url === pruning.url && k.key === pruning.key);
    if (other) return { pruning: pruning.account.name, other: other.account.name };
  }
  return undefined;
}

/** An account's websites address as its run would take it, or undefined when it has no usable one. */
function addressOf(account: ConfigAccount, env: RunScope["env"]): string | undefined {
  try {
    return checkAccountUrls({}, env, [{ name: account.name, config: { file: "", ...account } }]).get(account.name)?.websites;
  } catch {
    // An account not selected may have an unusable address: its own run says so, this one does not need it.
    return undefined;
  }
}

/**
 * The order accounts run in: one list per server origin, the lists side by side; an account without an
 * address is a list of its own. A person answers one prompt at a time: an interactive apply is one list.
 */
export function runOrder(specs: readonly AccountSpec[], interactive: boolean): AccountSpec[][] {
  if (interactive) return [[...specs]];
  const groups = new Map<string, AccountSpec[]>();
  for (const spec of specs) {
    const key = spec.address === "" ? `account:${spec.name}` : new URL(spec.address).origin;
    groups.set(key, [...(groups.get(key) ?? []), spec]);
  }
  return [...groups.values()];
}
