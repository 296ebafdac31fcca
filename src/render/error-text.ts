/** How an error that ended a command reads in a terminal: what happened, where, and what to do. Never a stack trace, except for a bug. */
import {
  AccountBusyError,
  AccountSelectionError,
  AccountUrlError,
  AdoptError,
  ApiError,
  CancelledError,
  ConfigError,
  ExportFileError,
  formatDiagnostic,
  SafetyError,
  UsageError,
} from "../errors.ts";
import { plural } from "../model/plural.ts";
import { printable } from "../model/printable.ts";
import { accountSelectionMessage, accountUrlMessage, type UrlSurface } from "./account-words.ts";
import { adoptMessage } from "./adopt-words.ts";
import { limitErrorMessage } from "./limit-words.ts";

/**
 * The lines of `error`, for stderr. Each is one line by construction; the server's text and the config's
 * values in it are escaped, so that none can move the cursor or forge a line of its own (DESIGN §12).
 */
/** The variables a run took its keys from: an account of a fleet names its own (`api_key_env`). */
interface KeyVariables {
  apiKeyEnv: string;
  projectsApiKeyEnv: string;
}

const ONE_ACCOUNT: KeyVariables = { apiKeyEnv: "SITESYNC_API_KEY", projectsApiKeyEnv: "SITESYNC_PROJECTS_API_KEY" };

export function errorLines(error: unknown, keys: KeyVariables = ONE_ACCOUNT): string[] {
  if (error instanceof CancelledError) return [error.message];
  if (error instanceof ConfigError) {
    const lines = error.diagnostics.map((diagnostic) => printable(formatDiagnostic(diagnostic)));
    return [...lines, `${plural(error.diagnostics.length, "error")} in the config: nothing was sent to the API.`];
  }
  if (error instanceof ApiError) {
    const lines = [`error: ${printable(problemMessage(error, "cli") ?? error.message)}`];
    for (const [field, messages] of Object.entries(error.fieldErrors ?? {}))
      lines.push(`  ${printable(field)}: ${printable(messages.join(" "))}`);
    if (error.kind === "redirect" || error.status === 401) {
      lines.push(`  check ${keys.apiKeyEnv} (and ${keys.projectsApiKeyEnv}): the server did not accept it.`);
    }
    const hint = urlHint(error);
    if (hint) lines.push(hint);
    return lines;
  }
  const problem = problemMessage(error, "cli");
  if (problem !== undefined) return [`error: ${printable(problem)}`];
  if (error instanceof SafetyError || error instanceof UsageError) return [`error: ${printable(error.message)}`];
  if (error instanceof Error && error.name === "CLIError") return [`error: ${printable(error.message)} (see --help)`];
  return [
    `internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    "This is a bug in sitesync; please report it with the command you ran.",
  ];
}

/**
 * A host that cannot be reached, or a listing that is not there (`404` on `/api/api/v1/websites` when the URL
 * was given with `/api`), means the base URL is wrong: name the flag that sets it.
 */
function urlHint(error: ApiError): string | undefined {
  const listing = /\/api\/v1\/(websites|projects)(\?|$)/.exec(error.url);
  const wrongPlace = listing && error.method === "GET" && (error.status === 404 || error.kind === "parse");
  if (error.kind !== "network" && !wrongPlace) return undefined;
  const projects = listing?.[1] === "projects" || /\/projects(\/|\?|$)/.test(error.url);
  const flag = projects ? "--projects-url (SITESYNC_PROJECTS_URL, projects_url)" : "--websites-url (SITESYNC_WEBSITES_URL, websites_url)";
  return `  check ${flag}: it is the base address of the installation, without /api/v1.`;
}

/**
 * The words of an error that carries its problem as data (an account's address or selection, adopt's files,
 * export's file), for the surface that shows it: the CLI names its flags, the Action its inputs.
 */
export function problemMessage(error: unknown, surface: UrlSurface): string | undefined {
  if (error instanceof AccountUrlError) return accountUrlMessage(error.setting, error.problem, surface, error.account);
  if (error instanceof AccountSelectionError) return accountSelectionMessage(error.problem, surface);
  if (error instanceof AdoptError) return adoptMessage(error.problem);
  if (error instanceof ApiError && error.limit !== undefined) return limitErrorMessage(error, error.limit, surface);
  if (error instanceof AccountBusyError) {
    const holder = error.holder ? ` (pid ${error.holder.pid}, since ${error.holder.started})` : "";
    return `another sitesync apply of ${error.address} is running on this machine${holder}: nothing was sent. Let it finish, then run again: a fresh plan shows what is left to do`;
  }
  if (error instanceof ExportFileError) {
    return `${error.file} already exists: to accept the account's live changes into it, run "sitesync adopt ${error.file}"; to replace it (losing its comments and edits), add --force`;
  }
  return undefined;
}
