/**
 * A config of many accounts (DESIGN §2, §6; issue 19 item 2, 4): each selected account is planned (and
 * applied) by the one orchestrator as a config of its own, with its own key and addresses. Accounts on
 * different servers run side by side; accounts on one server share its budget (the throttle counts per
 * client IP) through one scheduler per server origin, and run one after the other: never a 429 between them.
 */
import type { Scheduler } from "../api/scheduler.ts";
import type { BaseMemo } from "../change/load-base.ts";
import { accountConfig } from "../config/accounts.ts";
import { didYouMean } from "../config/did-you-mean.ts";
import type { Config, ConfigAccount } from "../config/types.ts";
import { AccountSelectionError, type AccountSelectionProblem } from "../errors.ts";
import { accountSelectionMessage } from "../model/account-url-words.ts";
import { checkBaseUrl } from "../model/base-url.ts";
import { checkAccountUrls } from "./client-for.ts";
import { ExitCode } from "./exit-code.ts";
import type { AccountOutcome, Outcome, RunHooks, RunRequest } from "./types.ts";

/** Runs one account as a run of its own (run.ts's `run`, passed in: it calls this module), given which. */
type RunOne = (request: RunRequest, hooks: RunHooks, account: ConfigAccount) => Promise<Outcome>;

/** The outcome of every selected account, in the order the root file lists them. */
export async function runAccounts(request: RunRequest, hooks: RunHooks, config: Config, runOne: RunOne): Promise<AccountOutcome[]> {
  const settings = request.settings ?? {};
  const accounts = selectedAccounts(config.accounts ?? [], namesToRun(settings));
  if (accounts.length > 1) {
    const known = accounts.map((a) => a.name);
    const one = (setting: "websites-url" | "projects-url" | "out" | "saved-plan" | "reviewed-plan") =>
      selectionError({ code: "one-only", setting, known });
    if (settings.websitesUrl !== undefined) throw one("websites-url");
    if (settings.projectsUrl !== undefined) throw one("projects-url");
    if (settings.savesPlan) throw one("out");
    if (settings.savedPlan !== undefined) throw one("saved-plan");
    if (settings.reviewed !== undefined) throw one("reviewed-plan");
  }
  // A bad or contradicted address in any account is known before the first request: no account writes.
  checkAccountUrls(
    settings,
    request.env,
    accounts.map((account) => ({ name: account.name, config: accountConfig(config, account) })),
  );
  // Every account's keys are secrets before the first request of any of them.
  for (const account of accounts) request.redactor.add([request.env[account.apiKeyEnv], request.env[account.projectsApiKeyEnv]]);
  const twins = pruningTwins(config.accounts ?? [], settings, request.env);
  if (twins) throw selectionError({ code: "same-account", ...twins });
  const schedulers = new Map<string, Scheduler>();
  // The change's base is loaded once, and each account compares its own slice of it.
  const bases: BaseMemo = new Map();
  const outcomes: AccountOutcome[] = [];
  const only = accounts.length === 1;
  const runAccount = async (account: ConfigAccount) => {
    const keyGiven = (only && request.secrets?.apiKey) || request.env[account.apiKeyEnv];
    const own = only ? hooks : accountHooks(hooks, account.name);
    const outcome = keyGiven
      ? await runOne(accountRequest(request, config, account, only, { schedulers, bases }), own, account)
      : unsetKey(request, account);
    outcomes.push({ name: account.name, outcome });
  };
  // A person answers one prompt at a time: an interactive apply goes account by account.
  const groups = hooks.approve ? [accounts] : byServer(accounts);
  await Promise.all(
    groups.map(async (group) => {
      for (const account of group) await runAccount(account);
    }),
  );
  const order = accounts.map((a) => a.name);
  return outcomes.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
}

/**
 * The accounts named: `--account`, or the one a saved plan was made for (`apply plan.json` runs that account
 * alone: it is the plan of one account, and another `--account` would not be the plan that was reviewed).
 */
function namesToRun(settings: NonNullable<RunRequest["settings"]>): readonly string[] {
  const names = settings.accounts ?? [];
  const planned = settings.savedPlan?.account;
  if (planned === undefined) return names;
  if (names.some((name) => name !== planned)) throw selectionError({ code: "plan-account", planned, given: [...names] });
  return [planned];
}

/** The accounts `--account` names (every one when none), or a UsageError with a did-you-mean. */
export function selectedAccounts(accounts: readonly ConfigAccount[], names: readonly string[]): ConfigAccount[] {
  if (names.length === 0) return [...accounts];
  const known = accounts.map((a) => a.name);
  for (const name of names) {
    if (known.includes(name)) continue;
    throw selectionError({ code: "unknown", name, known, guess: didYouMean(name, known) });
  }
  return accounts.filter((a) => names.includes(a.name));
}

/** One list per server origin, in the order the accounts come; an account without an address is its own. */
function byServer(accounts: readonly ConfigAccount[]): ConfigAccount[][] {
  const groups = new Map<string, ConfigAccount[]>();
  for (const account of accounts) {
    const url = account.websitesUrl ?? account.projectsUrl;
    const check = url === undefined ? undefined : checkBaseUrl(url);
    const key = check?.ok ? new URL(check.base).origin : `account:${account.name}`;
    groups.set(key, [...(groups.get(key) ?? []), account]);
  }
  return [...groups.values()];
}

/** The run of one account: its websites, policy and addresses as a config, its key variables as the keys. */
function accountRequest(
  request: RunRequest,
  config: Config,
  account: ConfigAccount,
  only: boolean,
  { schedulers, bases }: { schedulers: Map<string, Scheduler>; bases: BaseMemo },
): RunRequest {
  const own = accountConfig(config, account);
  const env = {
    ...request.env,
    SITESYNC_API_KEY: request.env[account.apiKeyEnv],
    SITESYNC_PROJECTS_API_KEY: request.env[account.projectsApiKeyEnv],
  };
  const { secrets, ...rest } = request;
  // Keys given by an adapter (the Action's api-key) are one account's: used only when one is selected.
  const changedSince = request.settings?.changedSince;
  const settings = changedSince ? { ...request.settings, changedSince: { ...changedSince, bases } } : request.settings;
  return { ...rest, ...(only && secrets ? { secrets } : {}), ...(settings ? { settings } : {}), config: own, env, schedulers };
}

/**
 * The hooks of one account among several: its finished items name it, since accounts on different servers
 * apply side by side and their lines interleave (the same domain may be in two accounts).
 */
function accountHooks(hooks: RunHooks, account: string): RunHooks {
  const { onItem } = hooks;
  return onItem ? { ...hooks, onItem: (item, done, total) => onItem(item, done, total, account) } : hooks;
}

/**
 * Two accounts of the config that are one account of a server (the same websites address, the same key set
 * in the environment), one of them pruning: each run of it would delete the other's websites. Compared over
 * every account whose key is set, selected or not (`--account eu` alone would prune us's websites too).
 */
function pruningTwins(
  accounts: readonly ConfigAccount[],
  settings: NonNullable<RunRequest["settings"]>,
  env: RunRequest["env"],
): { pruning: string; other: string } | undefined {
  // `--websites-url` points the one selected account elsewhere than its file says: nothing to compare.
  if (settings.websitesUrl !== undefined) return undefined;
  const urls = new Map<string, string>();
  for (const account of accounts.filter((a) => env[a.apiKeyEnv])) {
    try {
      urls.set(account.name, checkAccountUrls({}, env, [{ name: account.name, config: { file: "", ...account } }]).get(account.name) ?? "");
    } catch {
      // An account not selected may have an unusable address: its own run says so, this one does not need it.
    }
  }
  const keyed = accounts.filter((account) => urls.has(account.name));
  for (const pruning of keyed.filter((account) => account.policy.prune)) {
    const other = keyed.find(
      (account) =>
        account !== pruning && urls.get(account.name) === urls.get(pruning.name) && env[account.apiKeyEnv] === env[pruning.apiKeyEnv],
    );
    if (other) return { pruning: pruning.name, other: other.name };
  }
  return undefined;
}

/** The error for `problem`, worded for the CLI (the Action re-words it with `accountSelectionMessage`). */
function selectionError(problem: AccountSelectionProblem): AccountSelectionError {
  return new AccountSelectionError(problem, accountSelectionMessage(problem, "cli"));
}

/** An account whose key variable is unset ends alone, with the variable named; the others run. */
function unsetKey(request: RunRequest, account: ConfigAccount): Outcome {
  const error = selectionError({ code: "key-unset", account: account.name, env: account.apiKeyEnv });
  return { command: request.command, warnings: [], skipped: [], error, exitCode: ExitCode.error };
}

const RANK: readonly number[] = [
  ExitCode.ok,
  ExitCode.changes,
  ExitCode.refused,
  ExitCode.applyFailed,
  ExitCode.error,
  ExitCode.SIGTERM,
  ExitCode.SIGINT,
];

/** The run's exit code: the worst of its accounts' (DESIGN §2). */
export function worstExitCode(outcomes: readonly AccountOutcome[]): number {
  return outcomes.reduce(
    (worst, { outcome }) => (RANK.indexOf(outcome.exitCode) > RANK.indexOf(worst) ? outcome.exitCode : worst),
    ExitCode.ok as number,
  );
}
