/**
 * Mistakes in how sitesync was called (exit 1): the plain UsageError, and the ones that carry their problem as
 * data for render/ to word per surface (the account address, the accounts of a fleet, adopt, export's file).
 */

/** Wrong flags, missing URL or key, and other mistakes in how sitesync was called. */
export class UsageError extends Error {
  readonly code = "USAGE";
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Why a base address is unusable (model/base-url.ts checks); each surface words it for where the address came from. */
export type BaseUrlProblem =
  | { code: "not-url" }
  | { code: "scheme"; protocol: string }
  | { code: "credentials" }
  | { code: "query" }
  | { code: "plain-http"; hostname: string };

/** Which API's base address: the websites API (`websites_url`) or the projects API (`projects_url`). */
export type UrlSetting = "websites" | "projects";

/** Where a base address came from: the flag or Action input, `SITESYNC_*_URL`, or the config file. */
export type UrlSource = "setting" | "env" | "file";

/** Why the account a run would talk to is unknown or in doubt (DESIGN §2: "the account is never a surprise"). */
export type AccountUrlProblem =
  /** No flag, input, file key or variable names the address, and the command needs this API. */
  | { code: "missing" }
  /** The address given is not one a key may be sent to. */
  | { code: "invalid"; source: UrlSource; input: string; problem: BaseUrlProblem }
  /** `SITESYNC_*_URL` names another account than the config file does. */
  | { code: "env-differs"; env: string; file: string; configFile: string };

/**
 * The account's address is missing, unusable or contradicted. A UsageError (exit 1) that carries the problem
 * as data: render/ words it for the surface that shows it (the CLI's flags, the Action's inputs).
 */
export class AccountUrlError extends UsageError {
  readonly setting: UrlSetting;
  readonly problem: AccountUrlProblem;
  /** The account of a fleet whose address it is (`accounts.NAME.websites_url`); absent for one account. */
  readonly account: string | undefined;
  constructor(setting: UrlSetting, problem: AccountUrlProblem, account?: string) {
    super(`${account === undefined ? "" : `account ${account}: `}the ${setting} API address ${urlProblemSummary(problem)}`);
    this.name = "AccountUrlError";
    this.setting = setting;
    this.problem = problem;
    this.account = account;
  }
}

function urlProblemSummary(problem: AccountUrlProblem): string {
  switch (problem.code) {
    case "missing":
      return "is not set";
    case "invalid":
      return `given by the ${problem.source} is unusable (${problem.problem.code}): ${problem.input}`;
    case "env-differs":
      return `in the environment (${problem.env}) differs from ${problem.configFile}'s (${problem.file})`;
  }
}

/** A setting that names one account's address or plan. */
export type OneAccountSetting = "websites-url" | "projects-url" | "out" | "saved-plan" | "reviewed-plan";

/** Why the accounts a run of a fleet would run are in doubt (DESIGN §2 "Many files, many accounts"). */
export type AccountSelectionProblem =
  /** `--account` (the Action's `account` input) names no account of the config. */
  | { code: "unknown"; name: string; known: string[]; guess?: string | undefined }
  /** `--account` is given, and the config has no `accounts:`. */
  | { code: "no-accounts"; name: string }
  /** A setting that fits one account only, with several selected. */
  | { code: "one-only"; setting: OneAccountSetting; known: string[] }
  /** `--account` names another account than the one a saved plan was made for. */
  | { code: "plan-account"; planned: string; given: string[] }
  /** Two accounts are one account of a server (the same address and key), and `pruning` prunes. */
  | { code: "same-account"; pruning: string; other: string }
  /**
   * Variables holding keys the accounts' command will send are unset: each one's websites key, or the
   * projects key it names of its own; every one the run would need, found before its first request.
   */
  | { code: "key-unset"; keys: UnsetKey[] };

/** A key a run will send whose variable is unset ("" names the account of a config without `accounts:`). */
export interface UnsetKey {
  account: string;
  env: string;
  api: "websites" | "projects";
}

/**
 * A fleet's account selection is wrong or incomplete, or an account's key is not set. A UsageError (exit 1)
 * that carries the problem as data: render/ words it for the CLI (`--account`) or the Action (its inputs).
 */
export class AccountSelectionError extends UsageError {
  readonly problem: AccountSelectionProblem;
  constructor(problem: AccountSelectionProblem) {
    super(selectionSummary(problem));
    this.name = "AccountSelectionError";
    this.problem = problem;
  }
}

function selectionSummary(problem: AccountSelectionProblem): string {
  switch (problem.code) {
    case "unknown":
      return `no account ${problem.name} in the config`;
    case "no-accounts":
      return `the config has no accounts:, so there is no account ${problem.name}`;
    case "one-only":
      return `${problem.setting} applies to one account (the config has ${problem.known.join(", ")})`;
    case "plan-account":
      return `the saved plan is the plan of account ${problem.planned}`;
    case "same-account":
      return `accounts ${problem.pruning} and ${problem.other} are one account of the server, and ${problem.pruning} prunes`;
    case "key-unset":
      return `${problem.keys.map((key) => key.env).join(", ")} not set`;
  }
}

/** Why `adopt` cannot place new websites, or was called wrong (render/ words each for the CLI). */
export type AdoptProblem =
  /** The config to adopt into was given loaded, not as a path. */
  | { code: "not-a-path" }
  /** `--into` names another file than a config of one file. */
  | { code: "into-one-file"; path: string; root: string }
  /** `--into` is given twice for a config of one account. */
  | { code: "into-twice" }
  /** `--into` names no file of the config (`exists`: a file that is not included, or no file at all). */
  | { code: "into-unknown"; path: string; exists: boolean; root: string; takers: string[]; accounts: string[]; globs: string[] }
  /** `--into` names a file of another account than those adopted into (`holder`: its account, if it has one). */
  | { code: "into-other-account"; path: string; holder: string | undefined; accounts: { name: string; files: string[] }[] }
  /** `--into` names two files of one account. */
  | { code: "into-many"; account: string; paths: string[] }
  /** `count` live websites are to be added, and no file of the account may take them. */
  | { code: "no-into"; count: number; account: string; intoGiven: boolean; files: string[] };

/** `adopt` was asked what it cannot do: a UsageError (exit 1) that carries the problem as data. */
export class AdoptError extends UsageError {
  readonly problem: AdoptProblem;
  constructor(problem: AdoptProblem) {
    super(`adopt: ${problem.code}${"path" in problem ? ` (${problem.path})` : ""}`);
    this.name = "AdoptError";
    this.problem = problem;
  }
}

/** `export --out FILE` would overwrite a file (never without `--force`). A UsageError (exit 1). */
export class ExportFileError extends UsageError {
  readonly file: string;
  constructor(file: string) {
    super(`${file} already exists`);
    this.name = "ExportFileError";
    this.file = file;
  }
}
