import { createClient } from "../api/client.ts";
import { resolveBaseUrl } from "../api/resolve-base-url.ts";
import type { Client } from "../api/types.ts";
import type { Config } from "../config/types.ts";
import { AccountSelectionError, AccountUrlError, type UrlSetting } from "../errors.ts";
import type { AccountSpec, RunScope } from "./scope.ts";
import type { Env, RunSettings } from "./types.ts";

/**
 * The client of one account's run: its keys (an unset key is an error naming its variable), the addresses
 * of {@link accountUrls}, the run's scheduler for its server, and the run's hooks.
 */
export function clientFor(scope: RunScope, spec: AccountSpec): Client {
  const { apiKey, projectsApiKey } = spec.secrets;
  // Checked before the run's first request (run/account-keys.ts); a library caller's spec may still lack it.
  if (!apiKey)
    throw new AccountSelectionError({ code: "key-unset", keys: [{ account: spec.name, env: spec.keys.apiKeyEnv, api: "websites" }] });
  const { settings, hooks } = scope;
  const { websitesUrl, projectsUrl } = accountUrls(settings, scope.env, spec.config);
  const server = serverKey(websitesUrl ?? projectsUrl);
  scope.serving.set(server, spec.name);
  const account = () => scope.serving.get(server) ?? spec.name;
  return createClient({
    ...(websitesUrl ? { websitesUrl } : {}),
    ...(projectsUrl ? { projectsUrl } : {}),
    apiKey,
    ...(projectsApiKey ? { projectsApiKey } : {}),
    concurrency: settings.concurrency,
    timeoutMs: settings.timeoutMs,
    maxWaitMs: settings.maxWaitMs,
    rateWindowMs: settings.rateWindowMs,
    onRequest: hooks.onRequest,
    onWait: hooks.onWait && ((wait) => hooks.onWait?.(wait, account())),
    onProgress: hooks.onProgress && ((event) => hooks.onProgress?.(event, account())),
    onRateLearned: hooks.onRateLearned && ((learned) => hooks.onRateLearned?.(learned, account())),
    secrets: () => scope.redactor.secrets(),
    stop: scope.signal,
    schedulers: scope.schedulers,
  });
}

/** The key of a server's scheduler, as api/client.ts keys it: the origin of the account's first address. */
function serverKey(url: string | undefined): string {
  return url === undefined ? "" : new URL(url).origin;
}

type Addresses = Pick<Config, "file" | "websitesUrl" | "projectsUrl">;

/** An account whose addresses are checked, and whether its command reads its projects (DESIGN §2, §5). */
export interface AddressedAccount {
  name: string;
  config: Addresses | undefined;
  /** The command reads projects: the config manages them (`projects:`), or `export --projects`. */
  readsProjects?: boolean;
}

/** The addresses an account's run will talk to, as checked before the run. */
export interface AccountAddresses {
  websites: string;
  projects?: string;
}

/**
 * The addresses of every account, checked before any request: a websites address (and, for an account whose
 * command reads projects, a projects address) that is missing, not usable, or contradicted by
 * `SITESYNC_*_URL` stops the whole run, so that no other account reads or writes meanwhile.
 */
export function checkAccountUrls(
  settings: Pick<RunSettings, "websitesUrl" | "projectsUrl">,
  env: Env,
  accounts: readonly AddressedAccount[],
): Map<string, AccountAddresses> {
  const urls = new Map<string, AccountAddresses>();
  for (const { name, config, readsProjects } of accounts) {
    try {
      const { websitesUrl, projectsUrl } = accountUrls(settings, env, config);
      if (websitesUrl === undefined) throw new AccountUrlError("websites", { code: "missing" });
      if (readsProjects && projectsUrl === undefined) throw new AccountUrlError("projects", { code: "missing" });
      urls.set(name, { websites: websitesUrl, ...(projectsUrl ? { projects: projectsUrl } : {}) });
    } catch (error) {
      if (error instanceof AccountUrlError && name !== "") throw new AccountUrlError(error.setting, error.problem, name);
      throw error;
    }
  }
  return urls;
}

/**
 * The one place the account's address is decided (DESIGN §2, "the account is never a surprise"): the
 * setting (flag, Action input) wins, then the config file; `SITESYNC_*_URL` fills in only where the file
 * names none, and one that names another account than the file is an error naming both, not a silent
 * switch (a variable left exported would plan a config against another account).
 */
function accountUrls(
  settings: Pick<RunSettings, "websitesUrl" | "projectsUrl">,
  env: Env,
  config: Addresses | undefined,
): { websitesUrl?: string; projectsUrl?: string } {
  const websitesUrl = pick("websites", settings.websitesUrl, env.SITESYNC_WEBSITES_URL, config?.websitesUrl, config?.file);
  const projectsUrl = pick("projects", settings.projectsUrl, env.SITESYNC_PROJECTS_URL, config?.projectsUrl, config?.file);
  return { ...(websitesUrl ? { websitesUrl } : {}), ...(projectsUrl ? { projectsUrl } : {}) };
}

function pick(
  setting: UrlSetting,
  given: string | undefined,
  fromEnv: string | undefined,
  fromFile: string | undefined,
  configFile = "the config",
): string | undefined {
  if (given) return resolveBaseUrl(given, setting, "setting");
  const env = fromEnv?.trim() ? resolveBaseUrl(fromEnv, setting, "env") : undefined;
  if (!fromFile) return env;
  const file = resolveBaseUrl(fromFile, setting, "file");
  if (env !== undefined && env !== file) throw new AccountUrlError(setting, { code: "env-differs", env, file, configFile });
  return file;
}
