/**
 * The Action's inputs, read once at the edge (STYLE: actions/typescript-action) by the settings table
 * (run/settings.ts): every row with an input, parsed as the CLI's flags are. Every secret is registered
 * (`core.setSecret` through the redactor) the moment it is read, before anything can log it.
 */
import * as core from "@actions/core";
import type { Redactor } from "../api/redact.ts";
import { UsageError } from "../errors.ts";
import { settingProblemLine } from "../render/index.ts";
import { type RawValue, readSettings } from "../run/read-settings.ts";
import type { Setting } from "../run/setting.ts";
import { SETTING_ROWS, SETTINGS, type SettingName, type SettingValues } from "../run/settings.ts";
import type { Env } from "../run/types.ts";

export interface ActionInputs {
  command: SettingValues["command"];
  /** Path of the config file, as given (relative to the working directory). */
  config: string;
  /** `api-key`, else `SITESYNC_API_KEY` from the step's environment; undefined when neither is set. */
  apiKey: string | undefined;
  projectsApiKey: string | undefined;
  /**
   * The keys the inputs give, without the environment's: the keys of the one account the step runs. An account
   * of a fleet with no key input takes its own `api_key_env`, never `SITESYNC_API_KEY` (DESIGN §2).
   */
  keysGiven: { apiKey?: string; projectsApiKey?: string };
  comment: boolean;
  githubToken: string | undefined;
  /** apply only, on `workflow_dispatch`: apply the current plan without a reviewed plan (a deliberate human action). */
  applyUnreviewed: boolean;
  /** `account`: one account of the config's `accounts:` (a matrix leg); its own section of the comment. */
  account: string | undefined;
  /** The login that writes the plan comments, when it cannot be found from the token (GraphQL `viewer`, `GET /user`). */
  botLogin: string | undefined;
  /** `changed-since`: a revision, `none`, or undefined (automatic: a pull request's base commit). */
  changedSince: string | undefined;
  /** `command: drift`: what to do on drift (DESIGN §7): one issue, one adopt pull request, or only the outputs. */
  onDrift: SettingValues["onDrift"];
  /** Every setting the inputs say, as the CLI's flags would say it (`run/to-run-settings.ts` gives the run its part). */
  settings: SettingValues;
}

const INPUTS = SETTING_ROWS.filter(([, row]) => row.input !== undefined);

/**
 * Reads and checks every input. Problems are collected and thrown together as one UsageError, so a
 * workflow with two typos is fixed in one round.
 */
export function readInputs(redactor: Pick<Redactor, "add">, env: Env): ActionInputs {
  // Secrets first: nothing below may log before they are masked.
  const secrets = new Map<SettingName, string | undefined>();
  for (const [name, row] of INPUTS.filter(([, row]) => row.sensitive)) {
    const value = text(row) ?? ((row.env && env[row.env]) || undefined);
    redactor.add([value]);
    secrets.set(name, value);
  }
  const raw = (name: SettingName, row: Setting): RawValue => (secrets.has(name) ? secrets.get(name) : inputOf(row));
  const { values, problems } = readSettings(
    INPUTS.map(([name]) => name),
    raw,
  );
  if (problems.length > 0) {
    const lines = problems.map(({ name, problem }) => settingProblemLine(problem, (SETTINGS[name] as Setting).input!));
    throw new UsageError(`invalid input: ${lines.join("; ")}`);
  }
  const given = (name: "apiKey" | "projectsApiKey") => {
    const value = text(SETTINGS[name] as Setting);
    return value === undefined ? {} : { [name]: value };
  };
  return {
    command: values.command,
    config: values.config,
    apiKey: values.apiKey,
    projectsApiKey: values.projectsApiKey,
    keysGiven: { ...given("apiKey"), ...given("projectsApiKey") },
    githubToken: values.githubToken,
    comment: values.comment,
    applyUnreviewed: values.applyUnreviewed,
    account: values.account[0],
    botLogin: values.botLogin,
    changedSince: values.changedSince?.trim() || undefined,
    onDrift: values.onDrift,
    settings: values,
  };
}

/** An input as the table's kind takes it: a list one item per line; undefined when empty (an unset input is ""). */
function inputOf(row: Setting): RawValue {
  return row.kind === "list" || row.kind === "globs" ? core.getMultilineInput(row.input!) : text(row);
}

function text(row: Setting): string | undefined {
  return core.getInput(row.input!) || undefined;
}
