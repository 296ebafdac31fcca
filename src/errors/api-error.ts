/** What went wrong with one HTTP exchange: the ApiError every API call fails with. */

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
