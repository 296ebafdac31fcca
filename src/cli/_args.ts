/** Flags shared by the commands that talk to the API, and their parsing into checked values. */
import type { ArgsDef } from "citty";
import { UsageError } from "../errors.ts";
import type { RunSettings } from "../run/types.ts";

type ConnectSettings = Pick<RunSettings, "websitesUrl" | "projectsUrl" | "concurrency" | "timeoutMs" | "maxWaitMs" | "rateWindowMs">;

type Format = "text" | "json" | "markdown";
const FORMATS: Format[] = ["text", "json", "markdown"];

export const configArgs = {
  config: { type: "string", alias: "c", default: "sitesync.yaml", description: "Config file", valueHint: "file" },
} as const satisfies ArgsDef;

export const outputArgs = {
  format: { type: "enum", options: FORMATS, default: "text", description: "Output format: text, json or markdown" },
  verbose: { type: "boolean", description: "Log one line per HTTP request to stderr (the key is never shown)" },
  quiet: { type: "boolean", alias: "q", description: "Print only results and errors" },
} as const satisfies ArgsDef;

export const apiArgs = {
  "websites-url": {
    type: "string",
    description: "phpAnalytics base URL (or SITESYNC_WEBSITES_URL, or websites_url in the config)",
    valueHint: "url",
  },
  "projects-url": {
    type: "string",
    description: "phpRank base URL (or SITESYNC_PROJECTS_URL, or projects_url in the config)",
    valueHint: "url",
  },
  concurrency: { type: "string", default: "4", description: "Requests in flight at once", valueHint: "n" },
  timeout: {
    type: "string",
    default: "30s",
    description: "Timeout of one HTTP attempt, with a unit: 500ms, 30s, 2m",
    valueHint: "duration",
  },
  "max-wait": {
    type: "string",
    default: "5m",
    description: "Longest wait a server may ask for (Retry-After, X-RateLimit-Reset); a longer one ends the run",
    valueHint: "duration",
  },
  "rate-window": {
    type: "string",
    description: "Window the server's X-RateLimit-Limit counts in (default: learned from the server's answers)",
    valueHint: "duration",
  },
} as const satisfies ArgsDef;

export const planArgs = {
  account: {
    type: "string",
    description: "Run only this account (a name under the config's accounts:); repeatable. Every account when left out",
    valueHint: "name",
  },
  "sync-write-only": { type: "boolean", description: "Also send write-only fields (passwords, exclude_params) to existing websites" },
  "max-deletes": { type: "string", description: "Allow up to N deletes in this run (overrides policy.max_deletes)", valueHint: "n" },
  "allow-empty": { type: "boolean", description: "Allow prune with an empty website list (deletes every unprotected website)" },
  target: {
    type: "string",
    description: "Plan only websites (by domain) and projects (by name) matching this glob; repeatable. The plan is partial",
    valueHint: "glob",
  },
  exclude: {
    type: "string",
    description: "Leave out websites and projects matching this glob; repeatable, wins over --target",
    valueHint: "glob",
  },
  ...changeArgs(),
} as const satisfies ArgsDef;

/** `--changed-since REF` and `--full` (DESIGN §3 "Plans that follow the change"). */
function changeArgs() {
  return {
    "changed-since": {
      type: "string",
      description: "Follow the change since this git revision: read only the websites it touches, send the write-only values it edits",
      valueHint: "REF",
    },
    full: { type: "boolean", description: "With --changed-since: still read the whole account" },
  } as const satisfies ArgsDef;
}

type ApiFlags = { [K in keyof typeof apiArgs]?: string | undefined };
type PlanFlags = {
  "sync-write-only"?: boolean | undefined;
  "max-deletes"?: string | undefined;
  "allow-empty"?: boolean | undefined;
  "changed-since"?: string | undefined;
  full?: boolean | undefined;
};
/** The connection flags as the run takes them. */
export function connectSettings(flags: ApiFlags): ConnectSettings {
  return {
    websitesUrl: flags["websites-url"],
    projectsUrl: flags["projects-url"],
    concurrency: parseCount("concurrency", flags.concurrency ?? "4", 1),
    timeoutMs: parseDuration("timeout", flags.timeout ?? "30s"),
    maxWaitMs: parseDuration("max-wait", flags["max-wait"] ?? "5m"),
    // Unsaid, the window is learned per server (DESIGN §6).
    rateWindowMs: flags["rate-window"] === undefined ? undefined : parseDuration("rate-window", flags["rate-window"]),
  };
}

/** The connection and planning flags as the run takes them; `lists` holds every `--target` and `--exclude`. */
export function runSettings(flags: ApiFlags & PlanFlags, lists: Record<string, string[]> = {}): RunSettings {
  const maxDeletes = parseCount("max-deletes", flags["max-deletes"], 0);
  const target = lists.target ?? [];
  const exclude = lists.exclude ?? [];
  const changedSince = changeBase(flags);
  return {
    ...connectSettings(flags),
    syncWriteOnly: Boolean(flags["sync-write-only"]),
    allowEmpty: Boolean(flags["allow-empty"]),
    ...(maxDeletes === undefined ? {} : { maxDeletes }),
    ...(target.length + exclude.length > 0 ? { selection: { target, exclude } } : {}),
    ...(changedSince ? { changedSince } : {}),
    ...(lists.account ? { accounts: lists.account } : {}),
  };
}

function changeBase(flags: PlanFlags): RunSettings["changedSince"] {
  const ref = flags["changed-since"];
  if (ref === undefined) {
    if (flags.full) throw new UsageError("--full goes with --changed-since REF: without a change every plan reads the account in full");
    return undefined;
  }
  if (ref.trim() === "") throw new UsageError("--changed-since needs a git revision, such as --changed-since origin/main or HEAD~1");
  return { ref, ...(flags.full ? { full: true } : {}) };
}

export function parseCount(flag: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min) {
    throw new UsageError(`--${flag} must be a whole number of at least ${min}, not "${value}"`);
  }
  return Number(value);
}

/**
 * `500ms`, `30s`, `2m`, `1h`. A bare number is refused, not read as seconds: it used to mean milliseconds,
 * so a script written then (`--timeout 5000`) must fail loudly rather than now wait 83 minutes (issue 11).
 */
export function parseDuration(flag: string, value: string): number {
  const text = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) {
    // A bare number meant milliseconds before: suggest exactly that meaning, not a guess 1000 times longer.
    throw new UsageError(
      `--${flag} needs a unit: ${text}ms (a bare number meant milliseconds before), not "${value}"; durations take ms, s, m or h`,
    );
  }
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text);
  if (!match) throw new UsageError(`--${flag} must be a duration such as 500ms, 30s or 2m, not "${value}"`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] as "ms" | "s" | "m" | "h"];
  const ms = Math.round(Number(match[1]) * unit);
  if (ms <= 0) throw new UsageError(`--${flag} must be longer than 0`);
  return ms;
}
