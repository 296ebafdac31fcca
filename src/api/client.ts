import { UsageError } from "../errors.ts";
import { type Clock, systemClock } from "./clock.ts";
import { createHttp } from "./http.ts";
import { createProjectsApi } from "./projects.ts";
import { resolveBaseUrl } from "./resolve-base-url.ts";
import { createScheduler, type Scheduler } from "./scheduler.ts";
import { createService } from "./service.ts";
import type { Client, ClientOptions, RequestStats } from "./types.ts";
import { createWebsitesApi } from "./websites.ts";

const DEFAULTS = {
  concurrency: 4,
  timeoutMs: 30_000,
  retries: 4,
  retryBaseMs: 500,
  // DESIGN §12: a page of 100 websites is tens of KiB; even 100 `exclude_ips` TEXT columns (64 KiB each,
  // newlines escaped) stay well under this.
  maxBodyBytes: 32 * 2 ** 20,
  // DESIGN §12: the real API's windows are one minute; a server asking for longer is broken or hostile.
  maxWaitMs: 5 * 60_000,
} as const;

/**
 * The API client of one run: both APIs share one scheduler (concurrency and rate pacing), one request log
 * and one set of counters. A URL is only required when its API is used; a plain-http URL to another host
 * is refused at once (DESIGN §2).
 */
export function createClient(options: ClientOptions): Client {
  const apiKey = checkKey(options.apiKey, "the API key (SITESYNC_API_KEY)");
  const projectsKey = options.projectsApiKey ? checkKey(options.projectsApiKey, "the projects API key") : apiKey;
  const websitesBase = options.websitesUrl ? resolveBaseUrl(options.websitesUrl, "websites") : undefined;
  const projectsBase = options.projectsUrl ? resolveBaseUrl(options.projectsUrl, "projects") : undefined;

  const stats: RequestStats = { sent: {}, throttled: 0, retries: 0 };
  const maxWaitMs = whole(options.maxWaitMs, DEFAULTS.maxWaitMs, 0, "maxWaitMs");
  const clock = options.clock ?? systemClock;
  const origin = websitesBase ?? projectsBase;
  const key = origin === undefined ? "" : new URL(origin).origin;
  const runs = schedulerOf(options, key, clock, maxWaitMs);
  const http = createHttp({
    scheduler: runs,
    clock,
    stats,
    timeoutMs: whole(options.timeoutMs, DEFAULTS.timeoutMs, 1, "timeoutMs"),
    maxBodyBytes: whole(options.maxBodyBytes, DEFAULTS.maxBodyBytes, 1, "maxBodyBytes"),
    maxWaitMs,
    retries: whole(options.retries, DEFAULTS.retries, 0, "retries"),
    retryBaseMs: whole(options.retryBaseMs, DEFAULTS.retryBaseMs, 0, "retryBaseMs"),
    secrets: [...new Set([apiKey, projectsKey])],
    runSecrets: options.secrets,
    onRequest: options.onRequest,
    stop: options.stop,
  });

  return {
    target: { ...(websitesBase ? { websites: websitesBase } : {}), ...(projectsBase ? { projects: projectsBase } : {}) },
    websites: createWebsitesApi(createService(websitesBase, "websites", apiKey, http), options.onProgress),
    projects: createProjectsApi(createService(projectsBase, "projects", projectsKey, http), options.onProgress),
    stats: () => {
      const rate = origin === undefined ? undefined : runs.rate(key);
      return { ...stats, sent: { ...stats.sent }, ...(rate ? { rate } : {}) };
    },
  };
}

/** The scheduler of the client's server: the run's own for that origin when the run shares them (DESIGN §6). */
function schedulerOf(options: ClientOptions, origin: string, clock: Clock, maxWaitMs: number): Scheduler {
  const shared = origin === "" ? undefined : options.schedulers;
  const existing = shared?.get(origin);
  if (existing) return existing;
  const scheduler = createScheduler({
    concurrency: whole(options.concurrency, DEFAULTS.concurrency, 1, "--concurrency"),
    // Said outright, or learned per server (DESIGN §6).
    rateWindowMs: options.rateWindowMs === undefined ? undefined : whole(options.rateWindowMs, 0, 1, "rateWindowMs"),
    maxWaitMs,
    ...(options.stop ? { stop: options.stop } : {}),
    onWait: options.onWait,
    onRateLearned: options.onRateLearned,
    clock,
    onProgress: options.onProgress,
  });
  shared?.set(origin, scheduler);
  return scheduler;
}

/**
 * The key goes into a header. A space or control character there would make fetch throw an error that
 * quotes the header value, key included: refuse it here, without quoting it.
 */
function checkKey(key: string | undefined, what: string): string {
  const trimmed = key?.trim() ?? "";
  if (trimmed === "") throw new UsageError(`${what} is missing`);
  if (!/^[\x21-\x7e]+$/.test(trimmed)) throw new UsageError(`${what} contains spaces or characters that cannot be sent`);
  return trimmed;
}

function whole(value: number | undefined, fallback: number, min: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min) {
    throw new UsageError(`${name} must be a whole number ≥ ${min}, got ${value}`);
  }
  return value;
}
