/**
 * The errors the request loop (http.ts) ends a request with before judging an answer: not sent because the run
 * stopped or was interrupted, or a wait the server asks (or the learned window needs) past `--max-wait`.
 */
import { ApiError } from "../errors.ts";
import { retryAfterOf } from "./rate-info.ts";
import type { RateWindowTooLong } from "./rate-window.ts";
import type { Exchange } from "./response-body.ts";
import type { Attempt } from "./send.ts";

export function stopped(exchange: Exchange, cause: ApiError): ApiError {
  const { method, url } = exchange;
  return new ApiError({ kind: "stopped", method, url, message: `not sent: the run stopped after ${cause.message}`, cause });
}

/** Not sent because the run was asked to stop (SIGINT, SIGTERM): the request was never started. */
export function interrupted(exchange: Exchange, stop: AbortSignal): ApiError {
  const { method, url } = exchange;
  const why = typeof stop.reason === "string" ? stop.reason : "a stop request";
  return new ApiError({ kind: "stopped", method, url, message: `not sent: the run was interrupted by ${why}` });
}

/**
 * The ApiError that ends the run when an answer asks for a wait longer than `maxWaitMs` (DESIGN §12): a
 * 429's Retry-After or X-RateLimit-Reset, or the Retry-After of a 5xx to a request that would be retried.
 */
export function waitError(exchange: Exchange, result: Attempt, maxWaitMs: number, now: number): ApiError | undefined {
  if (result.kind !== "response") return undefined;
  // A POST is never retried after a 5xx (it may have been applied), so its Retry-After asks nothing of us.
  const retried5xx = result.status >= 500 && exchange.method !== "POST";
  const asked = result.status === 429 ? result.rate : retried5xx ? retryAfterOf(result.headers, now) : undefined;
  if (asked?.retryAt === undefined || asked.retryAt - now <= maxWaitMs) return undefined;
  return new ApiError({
    kind: "bound",
    method: exchange.method,
    url: exchange.url,
    status: result.status,
    message: `the server asked to wait ${asked.retryAt - now} ms, longer than the longest wait allowed (${maxWaitMs} ms)`,
    limit: { code: "wait-asked", waitMs: asked.retryAt - now, header: asked.waitHeader ?? "Retry-After", maxWaitMs },
    fatal: true,
  });
}

/** A learned rate window that would hold the run longer than `--max-wait` ends it, as a 429 asking so would. */
export function windowError(exchange: Exchange, error: RateWindowTooLong, maxWaitMs: number): ApiError {
  return new ApiError({
    kind: "bound",
    method: exchange.method,
    url: exchange.url,
    message: `not sent: the learned rate window needs a wait of ${error.waitMs} ms, longer than the longest wait allowed (${maxWaitMs} ms)`,
    limit: { code: "wait-learned", limit: error.limit, windowMs: error.windowMs, waitMs: error.waitMs, maxWaitMs },
    fatal: true,
  });
}
