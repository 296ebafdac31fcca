/** What every part of one Action run shares: its inputs, the event, the redactor and the environment, and the report it publishes. */
import type { Redactor } from "../api/redact.ts";
import type { Plan } from "../plan/types.ts";
import type { Sections } from "../render/index.ts";
import type { Env } from "../run/types.ts";
import type { ActionEvent } from "./event.ts";
import type { ActionInputs } from "./inputs.ts";

export interface RunContext {
  inputs: ActionInputs;
  event: ActionEvent;
  /** The config path relative to the checkout: the comment marker and headings name it. */
  configLabel: string;
  redactor: Redactor;
  env: Env;
}

/** The rendered sections of a run (render/), and its exit code (DESIGN §7), as the Outcome says. */
export interface Report extends Sections {
  exitCode: number;
}

export interface ActionReport {
  report: Report;
  /** Set once a plan was made; the job summary points to it when it has to cut the plan. */
  planFile?: string;
  /** The plan of a `plan` run, carried in the pull-request comment as the reviewed plan. */
  plan?: Plan;
  /** A config with `accounts:`: their names, every leg's alike, so each leg's share of the fleet's comment is too. */
  accounts?: string[];
  /** An apply on merge: the pull request it merged, where its outcome is commented too. */
  mergedPullRequest?: number;
}
