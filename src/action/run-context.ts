/** What every part of one Action run shares: its inputs, the event, the redactor and the environment, and the report it publishes. */
import type { Redactor } from "../api/redact.ts";
import type { ItemResult } from "../apply/types.ts";
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

/** One account's part of a report: its section of the comment. */
export interface AccountReport {
  /** Its name under `accounts:`; "" for a config without `accounts:`. */
  account: string;
  report: Report;
  /** The plan of a `plan` run, carried in the pull-request comment as the reviewed plan. */
  plan?: Plan;
  /** Its check run's title (render/'s words). */
  title?: string;
  /** The changes apply tried and failed: annotated at their line. */
  failed?: ItemResult[];
}

export interface ActionReport {
  /** The whole run: the job summary, the step's failure and exit code. */
  report: Report;
  /** Each account's sections, for its section of the comment. */
  accounts: AccountReport[];
  /** Set once a plan was made (of one account); the job summary points to it when it has to cut the plan. */
  planFile?: string;
  /** The accounts of the config ([""] without `accounts:`): each leg's share of the comment is decided from them alike. */
  fleet: string[];
  /** An apply on merge: the pull request it merged, where its outcome is commented too. */
  mergedPullRequest?: number;
  /** The config was only validated (a fork's pull request, no key): no check run. */
  offline?: true;
  /** `command: drift`: each account's drift, and what on-drift does with it. */
  drift?: DriftReport;
}

/** A drift check's accounts (DESIGN §7, "Drift, built in"), as on-drift acts on them. */
export interface DriftReport {
  mode: "issue" | "pull-request" | "none";
  accounts: DriftAccount[];
}

export interface DriftAccount {
  account: string;
  /** The account differs from the config (its plan has changes). */
  drifted: boolean;
  /** The drift check ran to its end: only then does "no drift" close an issue or a pull request. */
  known: boolean;
  /** pull-request: the files adopt changed (paths as the repository names them) and its report, the pull request's body. */
  adoption?: { files: { path: string; text: string }[]; report: Report };
}
