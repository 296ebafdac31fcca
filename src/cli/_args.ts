/** Flags shared by the commands that talk to the API, and their parsing into checked values. */
import type { ArgsDef } from "citty";
import { didYouMean } from "../config/did-you-mean.ts";
import { UsageError } from "../errors.ts";
import type { PlanSettings } from "../pipeline.ts";

export const configArgs = {
  config: { type: "string", alias: "c", default: "sitesync.yaml", description: "Config file", valueHint: "file" },
} as const satisfies ArgsDef;

export const outputArgs = {
  format: { type: "string", default: "text", description: "Output format: text, json or markdown", valueHint: "text|json|markdown" },
  verbose: { type: "boolean", description: "Log one line per HTTP request to stderr (the key is never shown)" },
  quiet: { type: "boolean", alias: "q", description: "Print only results and errors" },
} as const satisfies ArgsDef;

export const apiArgs = {
  "websites-url": { type: "string", description: "phpAnalytics base URL (or SITESYNC_WEBSITES_URL, or websites_url in the config)", valueHint: "url" },
  "projects-url": { type: "string", description: "phpRank base URL (or SITESYNC_PROJECTS_URL, or projects_url in the config)", valueHint: "url" },
  concurrency: { type: "string", default: "4", description: "Requests in flight at once", valueHint: "n" },
  timeout: { type: "string", default: "30s", description: "Timeout of one HTTP attempt", valueHint: "duration" },
  "max-wait": {
    type: "string",
    default: "5m",
    description: "Longest wait a server may ask for (Retry-After, X-RateLimit-Reset); a longer one ends the run",
    valueHint: "duration",
  },
  "rate-window": {
    type: "string",
    default: "60s",
    description: "Window the server's X-RateLimit-Limit counts in (the real API: 60 s)",
    valueHint: "duration",
  },
} as const satisfies ArgsDef;

export const planArgs = {
  "sync-write-only": { type: "boolean", description: "Also send write-only fields (passwords, exclude_params) to existing websites" },
  "max-deletes": { type: "string", description: "Allow up to N deletes in this run (overrides policy.max_deletes)", valueHint: "n" },
  "allow-empty": { type: "boolean", description: "Allow prune with an empty website list (deletes every unprotected website)" },
} as const satisfies ArgsDef;

/** The planning flags as the pipeline takes them. */
export function planSettings(flags: {
  "sync-write-only"?: boolean;
  "max-deletes"?: string;
  "allow-empty"?: boolean;
  "rate-window"?: string;
}): PlanSettings {
  const maxDeletes = parseCount("max-deletes", flags["max-deletes"], 0);
  return {
    syncWriteOnly: Boolean(flags["sync-write-only"]),
    allowEmpty: Boolean(flags["allow-empty"]),
    ...(maxDeletes === undefined ? {} : { maxDeletes }),
    rateWindowSeconds: parseDuration("rate-window", flags["rate-window"] ?? "60s") / 1000,
  };
}

export type Format = "text" | "json" | "markdown";

export function parseFormat(value: string | undefined): Format {
  const format = value ?? "text";
  if (format === "text" || format === "json" || format === "markdown") return format;
  throw new UsageError(`--format must be text, json or markdown, not "${format}"`);
}

export function parseCount(flag: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min) {
    throw new UsageError(`--${flag} must be a whole number of at least ${min}, not "${value}"`);
  }
  return Number(value);
}

/** `500ms`, `10s`, `2m` or a plain number of milliseconds. */
export function parseDuration(flag: string, value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
  if (!match) throw new UsageError(`--${flag} must be a duration such as 500ms, 30s or 2m, not "${value}"`);
  const unit = match[2] === "m" ? 60_000 : match[2] === "s" ? 1000 : 1;
  const ms = Number(match[1]) * unit;
  if (ms <= 0) throw new UsageError(`--${flag} must be longer than 0`);
  return ms;
}

/**
 * citty accepts any flag silently; a mistyped `--max-delete 50` must not run as if unset. Refuses flags the
 * command does not define, with a did-you-mean.
 */
export function rejectUnknownFlags(rawArgs: string[], args: ArgsDef): void {
  const known = new Set<string>(["help", "h"]);
  for (const [name, def] of Object.entries(args)) {
    known.add(name);
    if (def.type === "boolean") known.add(`no-${name}`);
    const aliases = "alias" in def ? def.alias : undefined;
    for (const alias of [aliases ?? []].flat()) known.add(alias);
  }
  for (const raw of rawArgs) {
    if (raw === "--") break;
    const match = /^--?([^=]+)/.exec(raw);
    if (!match || /^-\d/.test(raw)) continue;
    const name = match[1]!;
    if (known.has(name)) continue;
    const guess = didYouMean(name, [...known].filter((k) => k.length > 1));
    throw new UsageError(`unknown flag ${raw.split("=")[0]}${guess ? `; did you mean --${guess}?` : ""} (see --help)`);
  }
}
