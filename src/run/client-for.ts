import { createClient } from "../api/client.ts";
import type { Redactor } from "../api/redact.ts";
import { accountUrlError, resolveBaseUrl } from "../api/resolve-base-url.ts";
import type { Scheduler } from "../api/scheduler.ts";
import type { Client } from "../api/types.ts";
import type { Config } from "../config/types.ts";
import { AccountUrlError, type UrlSetting, UsageError } from "../errors.ts";
import type { ConnectSettings, Env, RunHooks, RunSecrets } from "./types.ts";

export interface ConnectRequest {
  env: Env;
  secrets?: RunSecrets | undefined;
  settings?: ConnectSettings | undefined;
  redactor: Redactor;
  /** Once aborted, no new request is sent (SIGINT, SIGTERM). */
  signal?: AbortSignal | undefined;
  /** Shared by the accounts of one run: one scheduler per server origin (DESIGN §6). */
  schedulers?: Map<string, Scheduler> | undefined;
}

/**
 * The client of a run. URLs: {@link accountUrls}. Keys: the given secret, else the environment; both are
 * redacted before any request.
 */
export function clientFor(
  request: ConnectRequest,
  config: Pick<Config, "file" | "websitesUrl" | "projectsUrl"> | undefined,
  hooks: Pick<RunHooks, "onRequest" | "onWait" | "onProgress" | "onRateLearned"> = {},
): Client {
  const { env, settings = {} } = request;
  const apiKey = request.secrets?.apiKey || env.SITESYNC_API_KEY || undefined;
  if (!apiKey) {
    throw new UsageError("SITESYNC_API_KEY is not set: export the API key of the account (Account → API) before running this command");
  }
  const projectsApiKey = request.secrets?.projectsApiKey || env.SITESYNC_PROJECTS_API_KEY || undefined;
  request.redactor.add([apiKey, projectsApiKey]);
  const { websitesUrl, projectsUrl } = accountUrls(settings, env, config);
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
    onWait: hooks.onWait,
    onProgress: hooks.onProgress,
    onRateLearned: hooks.onRateLearned,
    secrets: () => request.redactor.secrets(),
    stop: request.signal,
    ...(request.schedulers ? { schedulers: request.schedulers } : {}),
  });
}

/**
 * The websites address of every account of a fleet, checked before any request (issue 19): one that is
 * missing, not usable, or contradicted by `SITESYNC_*_URL` stops the whole run, so that no other account
 * writes meanwhile. Returns each account's address, by name.
 */
export function checkAccountUrls(
  settings: Pick<ConnectSettings, "websitesUrl" | "projectsUrl">,
  env: Env,
  accounts: readonly { name: string; config: Pick<Config, "file" | "websitesUrl" | "projectsUrl"> }[],
): Map<string, string> {
  const urls = new Map<string, string>();
  for (const { name, config } of accounts) {
    try {
      const { websitesUrl } = accountUrls(settings, env, config);
      if (websitesUrl === undefined) throw accountUrlError("websites", { code: "missing" });
      urls.set(name, websitesUrl);
    } catch (error) {
      if (error instanceof AccountUrlError) throw accountUrlError(error.setting, error.problem, name);
      throw error;
    }
  }
  return urls;
}

/**
 * The one place the account's address is decided (DESIGN §2, "the account is never a surprise"): the
 * setting (flag, Action input) wins, then the config file; `SITESYNC_*_URL` fills in only where the file
 * names none, and one that names another account than the file is an error naming both, not a silent
 * switch (issue 19: a variable left exported planned a config against another account).
 */
function accountUrls(
  settings: Pick<ConnectSettings, "websitesUrl" | "projectsUrl">,
  env: Env,
  config: Pick<Config, "file" | "websitesUrl" | "projectsUrl"> | undefined,
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
  if (env !== undefined && env !== file) throw accountUrlError(setting, { code: "env-differs", env, file, configFile });
  return file;
}
