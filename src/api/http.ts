import { AMBIGUOUS_POST_NOTE, ApiError } from "../errors.ts";
import type { Clock } from "./clock.ts";
import { retryAfterOf } from "./rate-info.ts";
import { RateWindowTooLong } from "./rate-window.ts";
import { redactUrl, scrub } from "./redact.ts";
import { type Exchange, errorFromResponse, parseJsonBody, serverText } from "./response-body.ts";
import type { Scheduler } from "./scheduler.ts";
import { type Attempt, type OutgoingRequest, send } from "./send.ts";
import { interrupted, stopped, waitError, windowError } from "./stop-errors.ts";
import type { RequestLogEntry, RequestStats } from "./types.ts";

export interface HttpOptions {
  scheduler: Scheduler;
  /** Mutated in place: the client's `stats()` returns a copy. */
  stats: RequestStats;
  timeoutMs: number;
  /** The largest answer body read, counted after decompression (DESIGN §12). */
  maxBodyBytes: number;
  /** The longest wait a server may ask for (Retry-After, X-RateLimit-Reset); a longer one ends the run. */
  maxWaitMs: number;
  retries: number;
  retryBaseMs: number;
  /** Every key in use, masked out of messages and bodies. */
  secrets: readonly string[];
  /** The run's other secrets (passwords, environment values): server text repeating one is withheld. */
  runSecrets?: (() => Iterable<string>) | undefined;
  onRequest?: ((entry: RequestLogEntry) => void) | undefined;
  /** A graceful stop (SIGINT, SIGTERM): no request is sent once it is aborted. */
  stop?: AbortSignal | undefined;
  clock: Clock;
}

/** A 2xx answer with its JSON object body. */
export interface ApiResponse {
  method: string;
  /** Redacted. */
  url: string;
  status: number;
  body: Record<string, unknown>;
  /** The exchange, so that a decoder's message can withhold what the server said (`serverText`). */
  exchange: Exchange;
}

export type Http = (request: OutgoingRequest) => Promise<ApiResponse>;

const BACKOFF_CAP_MS = 30_000;
/** A server that keeps answering 429 past its own Retry-After is broken, not busy. */
const MAX_THROTTLED = 20;

type Verdict =
  | { kind: "ok"; status: number; body: Record<string, unknown> }
  | { kind: "throttled"; error: ApiError }
  | { kind: "fail"; error: ApiError; retryable: boolean; retryAfterMs?: number | undefined };

/**
 * The request loop: every attempt through the shared scheduler, one log entry per attempt, and retries for
 * GET/PUT/DELETE on network errors, timeouts and 5xx with exponential backoff. A 429 waits out the pause the
 * scheduler took and is retried without counting as a failure. A POST is never repeated after an ambiguous
 * failure (DESIGN §6): its ApiError says `ambiguous` so the caller can look the domain up.
 */
export function createHttp(options: HttpOptions): Http {
  // A refused key ends the whole run at once (DESIGN §6): requests still queued are not sent after it.
  const run: RunState = {};
  return async (request) => {
    // Parsed once for the request, not again for each attempt.
    const target = new URL(request.url);
    const exchange = exchangeOf(request, target.pathname, options);
    const tries = { failures: 0, throttles: 0 };
    for (let attempt = 1; ; attempt++) {
      options.stats.sent[request.method] = (options.stats.sent[request.method] ?? 0) + 1;
      const { result, tooLong, verdict } = await scheduled(request, target.origin, exchange, options, run);
      report(options.onRequest, logEntry(exchange, attempt, result));
      if (result.rate?.limit !== undefined) options.stats.rateLimit = result.rate.limit;
      if (tooLong) throw tooLong;
      if (verdict.kind === "ok") return { method: request.method, url: exchange.url, status: verdict.status, body: verdict.body, exchange };
      await retryOrThrow(verdict, tries, options);
    }
  };
}

/** What every request of one client shares: the error that stopped the run, once one has. */
interface RunState {
  refused?: ApiError;
}

/**
 * One attempt through the scheduler, judged: `tooLong` when the server asks a wait past the bound. Both end the
 * run, and both are decided before the scheduler lets the next request go, so a refused key or a wait too long
 * stops every request still queued.
 */
async function scheduled(request: OutgoingRequest, origin: string, exchange: Exchange, options: HttpOptions, run: RunState) {
  let tooLong: ApiError | undefined;
  let verdict: Verdict | undefined;
  try {
    const result = await options.scheduler.run(origin, async () => {
      if (run.refused) throw stopped(exchange, run.refused);
      if (options.stop?.aborted) throw interrupted(exchange, options.stop);
      const answer = await send(request, options);
      const now = options.clock.now();
      tooLong = waitError(exchange, answer, options.maxWaitMs, now);
      verdict = judge(exchange, answer, now);
      if (tooLong) run.refused ??= tooLong;
      if (verdict.kind === "fail" && verdict.error.fatal) run.refused ??= verdict.error;
      return answer;
    });
    return { result, tooLong, verdict: verdict! };
  } catch (error) {
    // The scheduler refuses to start a request once the stop signal is aborted.
    if (options.stop?.aborted && !(error instanceof ApiError)) throw interrupted(exchange, options.stop);
    if (error instanceof RateWindowTooLong) {
      run.refused ??= windowError(exchange, error, options.maxWaitMs);
      throw run.refused;
    }
    throw error;
  }
}

/** After a failed attempt: wait and return to retry it (a 429, a retryable failure within the retries), or throw. */
async function retryOrThrow(
  verdict: Exclude<Verdict, { kind: "ok" }>,
  tries: { failures: number; throttles: number },
  options: HttpOptions,
): Promise<void> {
  if (verdict.kind === "throttled") {
    options.stats.throttled++;
    if (++tries.throttles <= MAX_THROTTLED) return;
    throw verdict.error;
  }
  if (!verdict.retryable || tries.failures >= options.retries) throw verdict.error;
  tries.failures++;
  options.stats.retries++;
  await options.clock.sleep(Math.max(backoffMs(tries.failures, options.retryBaseMs), verdict.retryAfterMs ?? 0), options.stop);
}

function exchangeOf(request: OutgoingRequest, pathname: string, options: HttpOptions): Exchange {
  // What we sent is ours: a domain holding a short password is printed whole, never edited (DESIGN §12).
  const ours = [...pathname.split("/").map(decodeSegment), ...(request.form ? [...request.form.keys(), ...request.form.values()] : [])];
  return {
    method: request.method,
    url: redactUrl(request.url),
    secrets: options.secrets,
    runSecrets: () => [...options.secrets, ...(options.runSecrets?.() ?? [])],
    ours,
  };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function judge(exchange: Exchange, result: Attempt, now: number): Verdict {
  const { method, url } = exchange;
  const isPost = method === "POST";
  if (result.kind === "failure") {
    const ambiguous = isPost && !result.neverSent;
    const note = ambiguous ? AMBIGUOUS_POST_NOTE : "";
    const message = scrub(`${result.detail}${note}`, exchange.secrets);
    if (result.reason === "too-large") {
      // Sending it again would only read the same body again.
      return {
        kind: "fail",
        error: new ApiError({ kind: "bound", method, url, status: result.status, message, ambiguous }),
        retryable: false,
      };
    }
    const limit = result.timeoutMs === undefined ? {} : { limit: { code: "timeout" as const, timeoutMs: result.timeoutMs } };
    const error = new ApiError({ kind: result.reason, method, url, message, ambiguous, cause: result.cause, ...limit });
    return { kind: "fail", error, retryable: !isPost || result.neverSent };
  }
  const { status, text } = result;
  if (status >= 200 && status < 300) {
    try {
      return { kind: "ok", status, body: parseJsonBody(exchange, status, text) };
    } catch (error) {
      return { kind: "fail", error: error as ApiError, retryable: false };
    }
  }
  if (status >= 300 && status < 400) return { kind: "fail", error: redirectError(exchange, result), retryable: false };
  // The throttle runs before anything else (API-NOTES §1): a 429 did no work, so even a POST is safe to repeat.
  if (status === 429) return { kind: "throttled", error: errorFromResponse(exchange, status, text) };
  if (status >= 500) {
    const error = errorFromResponse(exchange, status, text, isPost);
    const retryAt = retryAfterOf(result.headers, now)?.retryAt;
    return { kind: "fail", error, retryable: !isPost, retryAfterMs: retryAt === undefined ? undefined : retryAt - now };
  }
  return { kind: "fail", error: errorFromResponse(exchange, status, text), retryable: false };
}

function redirectError(exchange: Exchange, result: Attempt & { kind: "response" }): ApiError {
  const location = result.headers.get("location");
  const to = location ? ` to ${serverText(exchange, scrub(redactUrl(location), exchange.secrets))}` : "";
  return new ApiError({
    kind: "redirect",
    method: exchange.method,
    url: exchange.url,
    status: result.status,
    // API-NOTES §4: the API redirects to its login page when the key is refused and Accept is not JSON.
    message: `redirected${to} (not followed): the API key was refused, or a proxy dropped the "Accept: application/json" header`,
  });
}

/** A failing log hook must not turn a request that was answered (a committed POST, say) into a failure. */
function report(hook: HttpOptions["onRequest"], entry: RequestLogEntry): void {
  try {
    hook?.(entry);
  } catch {
    // The request's outcome matters more than one lost log line.
  }
}

function logEntry(exchange: Exchange, attempt: number, result: Attempt): RequestLogEntry {
  const entry: RequestLogEntry = { method: exchange.method, url: exchange.url, ms: result.ms, attempt };
  if (result.kind === "failure") {
    entry.error = scrub(result.detail, exchange.secrets);
    return entry;
  }
  entry.status = result.status;
  if (result.rate.limit !== undefined) entry.rateLimit = result.rate.limit;
  if (result.rate.remaining !== undefined) entry.rateRemaining = result.rate.remaining;
  return entry;
}

/** Exponential backoff with equal jitter: half the delay fixed, half random, so retries never bunch at 0. */
function backoffMs(failure: number, baseMs: number): number {
  const delay = Math.min(BACKOFF_CAP_MS, baseMs * 2 ** (failure - 1));
  return delay / 2 + Math.random() * (delay / 2);
}
