import { createClient } from "../api/client.ts";
import type { Redactor } from "../api/redact.ts";
import type { Client } from "../api/types.ts";
import type { Config } from "../config/types.ts";
import { UsageError } from "../errors.ts";
import type { ConnectSettings, Env, RunHooks, RunSecrets } from "./types.ts";

export interface ConnectRequest {
  env: Env;
  secrets?: RunSecrets | undefined;
  settings?: ConnectSettings | undefined;
  redactor: Redactor;
  /** Once aborted, no new request is sent (SIGINT, SIGTERM). */
  signal?: AbortSignal | undefined;
}

/**
 * The client of a run. URLs: the setting (flag, Action input), then `SITESYNC_*_URL`, then the config
 * (DESIGN §2). Keys: the given secret, else the environment; both are redacted before any request.
 */
export function clientFor(
  request: ConnectRequest,
  config: Pick<Config, "websitesUrl" | "projectsUrl"> | undefined,
  hooks: Pick<RunHooks, "onRequest" | "onWait" | "onProgress" | "onRateLearned"> = {},
): Client {
  const { env, settings = {} } = request;
  const apiKey = request.secrets?.apiKey || env.SITESYNC_API_KEY || undefined;
  if (!apiKey) {
    throw new UsageError("SITESYNC_API_KEY is not set: export the API key of the account (Account → API) before running this command");
  }
  const projectsApiKey = request.secrets?.projectsApiKey || env.SITESYNC_PROJECTS_API_KEY || undefined;
  request.redactor.add([apiKey, projectsApiKey]);
  const websitesUrl = settings.websitesUrl ?? (env.SITESYNC_WEBSITES_URL || undefined) ?? config?.websitesUrl;
  const projectsUrl = settings.projectsUrl ?? (env.SITESYNC_PROJECTS_URL || undefined) ?? config?.projectsUrl;
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
  });
}
