/**
 * The few error classes of sitesync. Each carries a stable `code`; `exitCodeOf` (run/exit-code.ts) maps
 * them to the exit codes of DESIGN §7 in exactly one place.
 */

/** One config problem at a place in a file: printed as `file:line:col path: message`. */
export interface Diagnostic {
  file: string;
  /** 1-based; 0 (with column 0) for a problem of the file as a whole, such as a missing file: no position is printed. */
  line: number;
  column: number;
  /** Stable identifier of the rule that fired, e.g. `schema.enum`, `domain.duplicate`. */
  code: string;
  /** Dotted path into the config, e.g. `websites[3].privacy`; empty for the whole file. */
  path: string;
  message: string;
  severity: "error" | "warning";
}

export function formatDiagnostic(d: Diagnostic): string {
  const where = `${diagnosticPlace(d)}${d.severity === "warning" ? " (warning)" : ""}`;
  return d.path ? `${where} ${d.path}: ${d.message}` : `${where} ${d.message}`;
}

/** `file:line:col`, or the file alone for a problem of the whole file (a missing file is not at `1:1`). */
export function diagnosticPlace(d: Pick<Diagnostic, "file" | "line" | "column">): string {
  return d.line > 0 ? `${d.file}:${d.line}:${d.column}` : `${d.file}:`;
}

export class ConfigError extends Error {
  readonly code = "CONFIG";
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[], message?: string) {
    super(message ?? diagnostics.map(formatDiagnostic).join("\n"));
    this.name = "ConfigError";
    this.diagnostics = diagnostics;
  }
}

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

/** What went wrong with one HTTP exchange. */
export type ApiErrorKind =
  /** The server answered with a status outside 2xx. */
  | "http"
  /** A 3xx: redirects are never followed (a 302 means a bad key or a missing Accept header: API-NOTES §4). */
  | "redirect"
  /** The connection failed or was reset before an answer arrived. */
  | "network"
  /** No answer within the per-attempt timeout. */
  | "timeout"
  /** A 2xx whose body is not the JSON the API documents (HTML, empty, truncated). */
  | "parse"
  /** A read that could not produce a complete, consistent listing (DESIGN §5). */
  | "integrity"
  /** Not sent: an earlier request of the run was refused (401/403/redirect), which ends the run (DESIGN §6). */
  | "stopped"
  /**
   * A bound on hostile input was crossed (DESIGN §12): too many pages, too large a body, too long a wait, or
   * a path that would not reach the intended endpoint. Exit 1, never a hang or a crash.
   */
  | "bound";

/** Said of a POST whose outcome is unknown (a timeout, a reset, a 5xx): it may have been applied. */
export const AMBIGUOUS_POST_NOTE = "; the POST may have been applied: look the website up before creating it again";

/**
 * A bound of the run's own settings that an exchange crossed (DESIGN §12), as data: render/ words it with the
 * setting's spelling for the surface that shows it (`--max-wait` on the CLI, the `max-wait` input in the Action).
 */
export type ApiLimit =
  /** No answer within the per-attempt timeout. */
  | { code: "timeout"; timeoutMs: number }
  /** The server asked for a wait (`header`: Retry-After, X-RateLimit-Reset) longer than the longest allowed. */
  | { code: "wait-asked"; waitMs: number; header: string; maxWaitMs: number }
  /** The learned rate window needs a wait longer than the longest allowed. */
  | { code: "wait-learned"; limit: number; windowMs: number; waitMs: number; maxWaitMs: number };

export interface ApiErrorInit {
  kind: ApiErrorKind;
  method: string;
  /** The request URL with any key removed. */
  url: string;
  status?: number;
  /** The server's own message, or ours when it gave none. */
  message: string;
  /** Field errors from a 422 (both `{message: bag}` and `{message, errors: bag}` shapes). */
  fieldErrors?: Record<string, string[]>;
  /** The parsed (or raw, cut) response body, for `--verbose` and results files. */
  body?: unknown;
  /** A POST whose outcome is unknown: it may have been committed (timeout, reset, 5xx). */
  ambiguous?: boolean;
  /** A 422 saying the domain is taken: by any account on the server, ours included (API-NOTES §2.4, §4). */
  domainTaken?: boolean;
  /** Ends the whole run, like a refused key: a server asking for a wait beyond `--max-wait` (DESIGN §12). */
  fatal?: boolean;
  /** The bound of the run's settings it crossed, when that is what failed. */
  limit?: ApiLimit;
  cause?: unknown;
}

/** Every failure of an API call. The message never holds the key. */
export class ApiError extends Error {
  readonly code = "API";
  readonly kind: ApiErrorKind;
  readonly method: string;
  readonly url: string;
  readonly status: number | undefined;
  readonly serverMessage: string;
  readonly fieldErrors: Record<string, string[]> | undefined;
  readonly body: unknown;
  readonly ambiguous: boolean;
  readonly limit: ApiLimit | undefined;
  readonly domainTaken: boolean;
  readonly #fatal: boolean;

  constructor(init: ApiErrorInit) {
    // A status, or else the kind as a label of its own ("timeout no answer within 1 ms" read as one phrase).
    const status = init.status === undefined ? `${init.kind === "timeout" ? "timed out" : init.kind}:` : String(init.status);
    super(`[${init.method}] ${init.url}: ${status} ${init.message}`, { cause: init.cause });
    this.name = "ApiError";
    this.kind = init.kind;
    this.method = init.method;
    this.url = init.url;
    this.status = init.status;
    this.serverMessage = init.message;
    this.fieldErrors = init.fieldErrors;
    this.body = init.body;
    this.ambiguous = init.ambiguous ?? false;
    this.limit = init.limit;
    this.domainTaken = init.domainTaken ?? false;
    this.#fatal = init.fatal ?? false;
  }

  /** 401, 403 and redirects (a bad key) end the whole run: every other request would fail the same way. */
  get fatal(): boolean {
    return this.#fatal || this.kind === "redirect" || this.status === 401 || this.status === 403;
  }
}

/** A safety rail refused the plan (DESIGN §3), or a saved plan is stale. Exit 4. */
export class SafetyError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "SafetyError";
    this.code = code;
  }
}

/** A bug in sitesync: an invariant that should never break. */
export class InternalError extends Error {
  readonly code = "INTERNAL";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InternalError";
  }
}

/** The user said no (or Ctrl-C, Ctrl-D at the prompt): nothing was changed, exit 1, no "error:" prefix. */
export class CancelledError extends Error {
  readonly code = "CANCELLED";
  constructor(message: string) {
    super(message);
    this.name = "CancelledError";
  }
}

/** The run that holds an account's apply lock, as it describes itself (run/account-lock.ts). */
export interface LockHolder {
  pid: number;
  /** ISO-8601: when it took the lock. */
  started: string;
}

/**
 * Another apply of the same account (address and key) runs on this machine: this one sent nothing (DESIGN §6).
 * Exit 1; render/ words it. `holder` is absent when the lock's holder could not say who it is.
 */
export class AccountBusyError extends Error {
  readonly code = "ACCOUNT_BUSY";
  readonly address: string;
  readonly holder: LockHolder | undefined;
  constructor(address: string, holder: LockHolder | undefined) {
    super(`another sitesync apply of ${address} is running${holder ? ` (pid ${holder.pid})` : ""}`);
    this.name = "AccountBusyError";
    this.address = address;
    this.holder = holder;
  }
}
