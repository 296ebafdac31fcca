/** What the API commands share: loading the config, making the client, reading live state. */
import { createClient } from "../api/client.ts";
import type { Client, RequestLogEntry } from "../api/types.ts";
import { loadConfig } from "../config/load.ts";
import type { Config } from "../config/types.ts";
import { ConfigError, formatDiagnostic, UsageError } from "../errors.ts";
import { parseCount, parseDuration } from "./_args.ts";
import type { Io } from "./_io.ts";

export interface ApiFlags {
  "websites-url"?: string;
  "projects-url"?: string;
  concurrency?: string;
  timeout?: string;
  "max-wait"?: string;
  "rate-window"?: string;
  verbose?: boolean;
}

/** Loads and validates the config; warnings go to stderr, errors throw a ConfigError (exit 1). */
export function loadConfigOrThrow(file: string, io: Io, quiet = false): Config {
  const result = loadConfig(file, { env: process.env });
  if (!quiet) for (const warning of result.warnings) io.err(formatDiagnostic(warning));
  if (!result.ok) throw new ConfigError(result.errors);
  io.addSecrets(result.config.secrets);
  return result.config;
}

/** The client for this run: URLs from flags, then environment, then config; keys from the environment only. */
export function clientFor(flags: ApiFlags, config: Pick<Config, "websitesUrl" | "projectsUrl"> | undefined, io: Io): Client {
  const apiKey = process.env.SITESYNC_API_KEY;
  if (!apiKey) {
    throw new UsageError("SITESYNC_API_KEY is not set: export the API key of the account (Account → API) before running this command");
  }
  const projectsApiKey = process.env.SITESYNC_PROJECTS_API_KEY || undefined;
  io.addSecrets([apiKey, projectsApiKey]);
  const websitesUrl = flags["websites-url"] ?? (process.env.SITESYNC_WEBSITES_URL || undefined) ?? config?.websitesUrl;
  const projectsUrl = flags["projects-url"] ?? (process.env.SITESYNC_PROJECTS_URL || undefined) ?? config?.projectsUrl;
  return createClient({
    ...(websitesUrl ? { websitesUrl } : {}),
    ...(projectsUrl ? { projectsUrl } : {}),
    apiKey,
    ...(projectsApiKey ? { projectsApiKey } : {}),
    concurrency: parseCount("concurrency", flags.concurrency ?? "4", 1)!,
    timeoutMs: parseDuration("timeout", flags.timeout ?? "30s"),
    maxWaitMs: parseDuration("max-wait", flags["max-wait"] ?? "5m"),
    rateWindowMs: parseDuration("rate-window", flags["rate-window"] ?? "60s"),
    ...(flags.verbose ? { onRequest: (entry: RequestLogEntry) => io.err(formatRequest(entry)) } : {}),
  });
}

export function formatRequest(entry: RequestLogEntry): string {
  const status = entry.status ?? entry.error ?? "-";
  const rate = entry.rateRemaining === undefined ? "" : ` (rate ${entry.rateRemaining}/${entry.rateLimit ?? "?"} left)`;
  const attempt = entry.attempt > 1 ? ` [attempt ${entry.attempt}]` : "";
  return `${entry.method} ${entry.url} ${status} ${Math.round(entry.ms)}ms${rate}${attempt}`;
}
