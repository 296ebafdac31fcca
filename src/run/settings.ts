/**
 * The one settings table (DESIGN §1, STYLE 12 and 22): every setting of every command, once, with its CLI
 * flag, its Action input, its kind, bounds, default and help. The CLI's flags (cli/_args.ts), its strict parse
 * (cli/_parse.ts), the Action's inputs (action/inputs.ts) and action.yml (action/action-yml.ts, held by a test)
 * are derived from it; run/read-settings.ts reads any of them into one typed object, `SettingValues`.
 */

import type { Setting } from "./setting.ts";
import { ADAPTER_SETTINGS } from "./settings-adapters.ts";
import { SANDBOX_SETTINGS } from "./settings-sandbox.ts";

const CONNECT = ["plan", "apply", "drift", "export", "adopt"] as const;
const PLANNING = ["plan", "apply"] as const;
/** What narrows or guards a plan applies to a drift check too; what follows a change does not (it reads in full). */
const COMPARING = ["plan", "apply", "drift"] as const;

export const SETTINGS = {
  command: {
    kind: "enum",
    options: ["plan", "apply", "drift"],
    input: "command",
    default: "plan",
    commands: COMPARING,
    help: "What the Action runs: plan, apply or drift",
    inputHelp:
      "plan: compare the config with the account and report the changes (never writes). " +
      "apply: plan, then make the account match the config, without asking. " +
      "drift: plan the whole account (for a schedule) and act on drift as on-drift says: one issue, or one pull request that adopts it.",
  },
  config: {
    kind: "path",
    flag: "config",
    alias: "c",
    input: "config",
    default: "sitesync.yaml",
    valueHint: "file",
    commands: ["validate", "plan", "apply", "drift", "matrix"],
    help: "Config file",
    inputHelp: "Path of the config file, relative to the repository root.",
  },
  apiKey: {
    kind: "string",
    input: "api-key",
    env: "SITESYNC_API_KEY",
    sensitive: true,
    commands: CONNECT,
    help: "API key of the phpAnalytics account",
    inputHelp:
      "API key of the phpAnalytics account (from a secret such as SITESYNC_API_KEY). Falls back to the " +
      "SITESYNC_API_KEY environment variable. Without a key, a plan on a pull request only validates the config.",
  },
  projectsApiKey: {
    kind: "string",
    input: "projects-api-key",
    env: "SITESYNC_PROJECTS_API_KEY",
    sensitive: true,
    commands: CONNECT,
    help: "Key for the phpRank projects API when it differs from the websites key",
    inputHelp: "Key for the phpRank projects API when it differs from api-key (or SITESYNC_PROJECTS_API_KEY).",
  },
  websitesUrl: {
    kind: "url",
    flag: "websites-url",
    input: "websites-url",
    env: "SITESYNC_WEBSITES_URL",
    valueHint: "url",
    commands: CONNECT,
    help: "phpAnalytics base URL; without it, websites_url in the config, else SITESYNC_WEBSITES_URL",
    helpOn: { export: "phpAnalytics base URL, else SITESYNC_WEBSITES_URL (export reads no config)" },
    envHelp:
      "phpAnalytics base URL where neither the flag nor the config's websites_url gives one; one that differs from the config's is an error",
    inputHelp: "phpAnalytics base URL, without /api/v1 (the config's websites_url wins over SITESYNC_WEBSITES_URL; this input over both).",
  },
  projectsUrl: {
    kind: "url",
    flag: "projects-url",
    input: "projects-url",
    env: "SITESYNC_PROJECTS_URL",
    valueHint: "url",
    commands: CONNECT,
    help: "phpRank base URL; without it, projects_url in the config, else SITESYNC_PROJECTS_URL",
    helpOn: { export: "phpRank base URL, else SITESYNC_PROJECTS_URL (export reads no config)" },
    envHelp:
      "phpRank base URL where neither the flag nor the config's projects_url gives one; one that differs from the config's is an error",
    inputHelp: "phpRank base URL, without /api/v1 (the config's projects_url wins over SITESYNC_PROJECTS_URL; this input over both).",
  },
  concurrency: {
    kind: "count",
    min: 1,
    flag: "concurrency",
    input: "concurrency",
    default: "4",
    valueHint: "n",
    commands: CONNECT,
    help: "Requests in flight at once",
    inputHelp: "API requests in flight at once.",
  },
  timeout: {
    kind: "duration",
    flag: "timeout",
    input: "timeout",
    default: "30s",
    valueHint: "duration",
    commands: CONNECT,
    help: "Timeout of one HTTP attempt, with a unit: 500ms, 30s, 2m",
  },
  maxWait: {
    kind: "duration",
    flag: "max-wait",
    input: "max-wait",
    default: "5m",
    valueHint: "duration",
    commands: CONNECT,
    help: "Longest wait a server may ask for (Retry-After, X-RateLimit-Reset); a longer one ends the run",
  },
  rateWindow: {
    kind: "duration",
    flag: "rate-window",
    input: "rate-window",
    valueHint: "duration",
    commands: CONNECT,
    help: "Window the server's X-RateLimit-Limit counts in (default: learned from the server's answers)",
  },
  account: {
    kind: "list",
    flag: "account",
    input: "account",
    oneInput: true,
    valueHint: "name",
    // Not export's: it reads no config, and exports the one account its URL and key reach (refused there).
    commands: ["plan", "apply", "drift", "adopt"],
    help: "Run only this account (a name under the config's accounts:); repeatable. Every account when left out",
    inputHelp:
      "One account of the config's accounts to run (a leg of a fleet's matrix: `sitesync matrix`). Its section of the " +
      "plan comment is written beside the other legs' sections; its reviewed plan is applied on merge.",
  },
  syncWriteOnly: {
    planning: true,
    kind: "boolean",
    flag: "sync-write-only",
    input: "sync-write-only",
    commands: PLANNING,
    help: "Also send write-only fields (passwords, exclude_params) to existing websites",
    inputHelp: "Send every exclude_params and password the config sets, though the API cannot show them (the CLI's --sync-write-only).",
  },
  maxDeletes: {
    planning: true,
    kind: "count",
    min: 0,
    flag: "max-deletes",
    input: "max-deletes",
    valueHint: "n",
    commands: COMPARING,
    help: "Allow up to N deletes in this run (overrides policy.max_deletes)",
    inputHelp: "Allow up to this many deletes in this run, overriding policy.max_deletes (the CLI's --max-deletes).",
  },
  allowEmpty: {
    planning: true,
    kind: "boolean",
    flag: "allow-empty",
    input: "allow-empty",
    commands: COMPARING,
    help: "Allow prune with an empty website list (deletes every unprotected website)",
  },
  target: {
    planning: true,
    kind: "globs",
    flag: "target",
    input: "target",
    valueHint: "glob",
    commands: COMPARING,
    help: "Plan only websites (by domain) and projects (by name) matching this glob; repeatable. The plan is partial",
    inputHelp: "Plan only websites (by domain) and projects (by name) matching these globs, one per line. The plan is partial.",
  },
  exclude: {
    planning: true,
    kind: "globs",
    flag: "exclude",
    input: "exclude",
    valueHint: "glob",
    commands: COMPARING,
    help: "Leave out websites and projects matching this glob; repeatable, wins over --target",
    inputHelp: "Leave out websites and projects matching these globs, one per line; wins over target.",
  },
  changedSince: {
    planning: true,
    kind: "string",
    flag: "changed-since",
    input: "changed-since",
    valueHint: "REF",
    commands: ["plan", "apply", "matrix"],
    help: "Follow the change since this git revision: read only the websites it touches, send the write-only values it edits",
    helpOn: { matrix: "Only the accounts whose files changed since this git revision" },
    inputHelp:
      "The git revision whose change the plan follows: only the websites it touches are read, and the " +
      "exclude_params and password lines it edits are sent. Empty (the default): on a pull request, its base " +
      "commit (fetched once in a shallow checkout); on the merge, the base the reviewed plan recorded; else " +
      "none. `none`: read the whole account and follow no change.",
  },
  full: {
    planning: true,
    kind: "boolean",
    flag: "full",
    input: "full",
    commands: PLANNING,
    help: "With --changed-since: still read the whole account",
    inputHelp: "While following a change (changed-since, or a pull request's base): send what it edits, but still read the whole account.",
  },
  ...ADAPTER_SETTINGS,
  ...SANDBOX_SETTINGS,
} as const satisfies Record<string, Setting>;

type Table = typeof SETTINGS;
export type SettingName = keyof Table;

type ValueOf<R> = R extends { kind: "count" | "duration" | "chance" }
  ? number
  : R extends { kind: "boolean" }
    ? boolean
    : R extends { kind: "list" | "globs" }
      ? string[]
      : R extends { kind: "enum"; options: readonly (infer O)[] }
        ? O
        : string;
/** Booleans and lists always have a value (false, []); other kinds only when given or defaulted. */
type AlwaysSet<R> = R extends { kind: "boolean" | "list" | "globs" } ? true : R extends { default: string } ? true : false;

/** Every setting's value, read from the CLI's flags or the Action's inputs: the same object for both. */
export type SettingValues = {
  -readonly [K in SettingName]: AlwaysSet<Table[K]> extends true ? ValueOf<Table[K]> : ValueOf<Table[K]> | undefined;
};

/** The rows, as data to loop over. */
export const SETTING_ROWS = Object.entries(SETTINGS) as [SettingName, Setting][];
