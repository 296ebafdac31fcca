/** How an error that ended a command reads on stderr: what happened, where, and what to do. Never a stack trace, except for a bug. */
import { ApiError, ConfigError, formatDiagnostic, SafetyError, UsageError } from "../errors.ts";
import { printable } from "../model/printable.ts";
import type { Io } from "./_io.ts";

/** The user said no (or Ctrl-C, Ctrl-D at the prompt): nothing was changed, exit 1, no "error:" prefix. */
export class CancelledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CancelledError";
  }
}

/**
 * Each message is one line by construction; the server's text and the config's values in it are escaped, so
 * that none can move the cursor or forge a line of its own (DESIGN §12).
 */
export function reportError(error: unknown, io: Io): void {
  if (error instanceof CancelledError) {
    io.err(error.message);
  } else if (error instanceof ConfigError) {
    for (const diagnostic of error.diagnostics) io.err(printable(formatDiagnostic(diagnostic)));
    const n = error.diagnostics.length;
    // A password that must be sent is found once the account was read (DESIGN §2): reads went out, no write.
    const planned = error.diagnostics.some((d) => d.code === "password.required");
    io.err(
      `${n} error${n === 1 ? "" : "s"} in the config: ${planned ? "nothing was changed in the account" : "nothing was sent to the API"}.`,
    );
  } else if (error instanceof ApiError) {
    io.err(`error: ${printable(error.message)}`);
    for (const [field, messages] of Object.entries(error.fieldErrors ?? {}))
      io.err(`  ${printable(field)}: ${printable(messages.join(" "))}`);
    if (error.kind === "redirect" || error.status === 401) {
      io.err("  check SITESYNC_API_KEY (and SITESYNC_PROJECTS_API_KEY): the server did not accept it.");
    }
    const hint = urlHint(error);
    if (hint) io.err(hint);
  } else if (error instanceof SafetyError || error instanceof UsageError) {
    io.err(`error: ${printable(error.message)}`);
  } else if (error instanceof Error && error.name === "CLIError") {
    io.err(`error: ${printable(error.message)} (see --help)`);
  } else {
    io.err(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    io.err("This is a bug in sitesync; please report it with the command you ran.");
  }
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
