/**
 * The Action's inputs, read once at the edge (STYLE: actions/typescript-action). Every secret is registered
 * (`core.setSecret` through the redactor) the moment it is read, before anything can log it.
 */
import * as core from "@actions/core";
import type { Redactor } from "../api/redact.ts";
import { UsageError } from "../errors.ts";
import type { Env } from "../run/types.ts";

type ActionCommand = "plan" | "apply";

export interface ActionInputs {
  command: ActionCommand;
  /** Path of the config file, as given (relative to the working directory). */
  config: string;
  /** `api-key`, else `SITESYNC_API_KEY` from the step's environment; undefined when neither is set. */
  apiKey: string | undefined;
  projectsApiKey: string | undefined;
  /** The inputs only: as the CLI's flags, they beat the config, which beats `SITESYNC_*_URL` (run/client-for.ts). */
  websitesUrl: string | undefined;
  projectsUrl: string | undefined;
  /** Overrides `policy.max_deletes` for this run (the CLI's `--max-deletes N`). */
  maxDeletes: string | undefined;
  concurrency: number;
  comment: boolean;
  githubToken: string | undefined;
  detailedExitcode: boolean;
  /** apply only, on `workflow_dispatch`: apply the current plan without a reviewed plan (a deliberate human action). */
  applyUnreviewed: boolean;
  /** `account`: one account of the config's `accounts:` (a matrix leg); its own section of the comment. */
  account: string | undefined;
  /** The login that writes the plan comments, when it cannot be found from the token (GraphQL `viewer`, `GET /user`). */
  botLogin: string | undefined;
  /** `changed-since`: a revision, `none`, or undefined (automatic: a pull request's base commit). */
  changedSince: string | undefined;
  syncWriteOnly: boolean;
  /** `target` / `exclude`: globs, one per line. */
  target: string[];
  exclude: string[];
}

/**
 * Reads and checks every input. Problems are collected and thrown together as one UsageError, so a
 * workflow with two typos is fixed in one round.
 */
export function readInputs(redactor: Pick<Redactor, "add">, env: Env): ActionInputs {
  const secret = (name: string, envName: string): string | undefined => {
    const value = text(name) ?? (env[envName] || undefined);
    redactor.add([value]);
    return value;
  };
  // Secrets first: nothing below may log before they are masked.
  const apiKey = secret("api-key", "SITESYNC_API_KEY");
  const projectsApiKey = secret("projects-api-key", "SITESYNC_PROJECTS_API_KEY");
  const githubToken = secret("github-token", "GITHUB_TOKEN");

  const problems: string[] = [];
  const options = readOptions(problems);
  if (problems.length > 0) throw new UsageError(`invalid input: ${problems.join("; ")}`);
  return {
    ...options,
    apiKey,
    projectsApiKey,
    githubToken,
    websitesUrl: text("websites-url"),
    projectsUrl: text("projects-url"),
    botLogin: text("bot-login"),
    account: text("account"),
    changedSince: text("changed-since")?.trim() || undefined,
    target: core.getMultilineInput("target"),
    exclude: core.getMultilineInput("exclude"),
  };
}

type Options = Pick<
  ActionInputs,
  "command" | "config" | "maxDeletes" | "concurrency" | "comment" | "detailedExitcode" | "applyUnreviewed" | "syncWriteOnly"
>;

function readOptions(problems: string[]): Options {
  const command = text("command") ?? "plan";
  if (command !== "plan" && command !== "apply") problems.push(`command must be plan or apply, not "${command}"`);
  const maxDeletes = text("max-deletes");
  if (maxDeletes !== undefined && !/^\d+$/.test(maxDeletes)) {
    problems.push(`max-deletes must be a whole number (0 or more), not "${maxDeletes}"`);
  }
  const concurrency = text("concurrency") ?? "4";
  if (!/^\d+$/.test(concurrency) || Number(concurrency) < 1) {
    problems.push(`concurrency must be a whole number of at least 1, not "${concurrency}"`);
  }
  return {
    command: command as ActionCommand,
    config: text("config") ?? "sitesync.yaml",
    maxDeletes,
    concurrency: Number(concurrency),
    comment: flag("comment", true, problems),
    detailedExitcode: flag("detailed-exitcode", false, problems),
    applyUnreviewed: flag("apply-unreviewed", false, problems),
    syncWriteOnly: flag("sync-write-only", false, problems),
  };
}

/** An input, or undefined when empty: the runner passes an unset input as "". */
function text(name: string): string | undefined {
  return core.getInput(name) || undefined;
}

/** The YAML 1.2 core schema's booleans, as `core.getBooleanInput` reads them, with our own message. */
function flag(name: string, fallback: boolean, problems: string[]): boolean {
  const value = text(name);
  if (value === undefined) return fallback;
  if (["true", "True", "TRUE"].includes(value)) return true;
  if (["false", "False", "FALSE"].includes(value)) return false;
  problems.push(`${name} must be true or false, not "${value}"`);
  return fallback;
}
