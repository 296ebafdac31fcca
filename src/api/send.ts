import { FetchError, ofetch } from "ofetch";
import { rateInfoOf, type RateInfo } from "./rate-gate.ts";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface OutgoingRequest {
  method: Method;
  url: string;
  apiKey: string;
  /** An `application/x-www-form-urlencoded` body, the format the API documents (API-NOTES §1). */
  form?: URLSearchParams;
}

/** What one attempt produced: an answer of any status, or no answer at all. */
export type Attempt =
  | { kind: "response"; status: number; headers: Headers; text: string; ms: number; rate: RateInfo }
  | {
      kind: "failure";
      reason: "timeout" | "network";
      detail: string;
      /** The connection was refused before the request went out, so even a POST is safe to repeat. */
      neverSent: boolean;
      cause: unknown;
      ms: number;
      rate?: undefined;
    };

const NEVER_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/**
 * One HTTP attempt, never retried here (ofetch `retry: false`; the loop in `http.ts` decides). A fresh
 * `AbortSignal.timeout` per attempt: ofetch 1.5.1 reuses an aborted signal across its own retries when
 * `timeout` is combined with `retry` (unjs/ofetch#621, DESIGN §10).
 */
export async function send(request: OutgoingRequest, timeoutMs: number): Promise<Attempt> {
  const started = performance.now();
  let signal: AbortSignal | undefined;
  const headers: Record<string, string> = {
    Authorization: `Bearer ${request.apiKey}`,
    // Without it a refused key answers 302 to a login page instead of a 401 (API-NOTES §4).
    Accept: "application/json",
    "User-Agent": "sitesync",
  };
  if (request.form) headers["Content-Type"] = "application/x-www-form-urlencoded";
  try {
    const response = await ofetch.raw<string, "text">(request.url, {
      method: request.method,
      headers,
      body: request.form?.toString(),
      retry: false,
      // A redirect means a refused key or a dropped Accept header; following it would leak the key (API-NOTES §4).
      redirect: "manual",
      ignoreResponseError: true,
      responseType: "text",
      onRequest({ options }) {
        signal = AbortSignal.timeout(timeoutMs);
        options.signal = signal;
      },
    });
    const ms = Math.round(performance.now() - started);
    const text = typeof response._data === "string" ? response._data : "";
    const { status, headers: received } = response;
    return { kind: "response", status, headers: received, text, ms, rate: rateInfoOf(status, received, Date.now()) };
  } catch (error) {
    const ms = Math.round(performance.now() - started);
    // ofetch's FetchError exposes the request options (and so the Authorization header): keep only its cause.
    const cause = error instanceof FetchError ? error.cause : error;
    if (signal?.aborted) {
      return { kind: "failure", reason: "timeout", detail: `no answer within ${timeoutMs} ms`, neverSent: false, cause, ms };
    }
    const code = errorCode(cause);
    const detail = code ? `connection failed (${code})` : `connection failed (${messageOf(cause)})`;
    return { kind: "failure", reason: "network", detail, neverSent: code !== undefined && NEVER_SENT_CODES.has(code), cause, ms };
  }
}

/** The first `code` along an error's cause chain (undici nests the socket error under "fetch failed"). */
function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Object; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
