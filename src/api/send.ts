import type { Readable } from "node:stream";
import type { Clock } from "./clock.ts";
import { createFetch, FetchError, type FetchResponse } from "./ofetch-core.ts";
import { type HeaderReader, type RateInfo, rateInfoOf } from "./rate-info.ts";
import { type Deadline, HeaderMap, nodeFetch } from "./transport.ts";

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
  | { kind: "response"; status: number; headers: HeaderReader; text: string; ms: number; rate: RateInfo }
  | {
      kind: "failure";
      /** `too-large`: an answer whose decoded body passed the size cap, refused while it streamed in. */
      reason: "timeout" | "network" | "too-large";
      detail: string;
      /** The connection was refused before the request went out, so even a POST is safe to repeat. */
      neverSent: boolean;
      cause: unknown;
      ms: number;
      /** Set for `too-large`: the answer's status. */
      status?: number;
      /** Set for `timeout`: the timeout it ran out of, which a person may raise. */
      timeoutMs?: number;
      rate?: RateInfo | undefined;
    };

/** Limits on one attempt. */
export interface SendLimits {
  timeoutMs: number;
  /** The largest body read, counted after decompression (a gzip bomb is stopped at this size). */
  maxBodyBytes: number;
  clock: Clock;
}

const NEVER_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/**
 * ofetch over Node's http (transport.ts), never retrying (the loop in `http.ts` decides), never following a
 * redirect (a redirect means a refused key or a dropped Accept header; following it would leak the key:
 * API-NOTES §4), any status answered as data, the body as a stream.
 */
const $fetch = createFetch({
  fetch: nodeFetch as unknown as typeof fetch,
  Headers: HeaderMap as unknown as typeof Headers,
  defaults: { retry: false, redirect: "manual", ignoreResponseError: true, responseType: "stream" },
});

/**
 * One HTTP attempt, never retried here. A fresh deadline per attempt, kept by the transport (transport.ts),
 * not ofetch's `timeout`: ofetch 1.5.1 reuses an aborted signal across its own retries when `timeout` is
 * combined with `retry` (unjs/ofetch#621, DESIGN §10). The deadline covers the body too. The body comes as a
 * stream and is read here with a byte counter, so an endless or decompression-bomb body stops at the cap
 * (DESIGN §12).
 */
export async function send(request: OutgoingRequest, limits: SendLimits): Promise<Attempt> {
  const started = performance.now();
  const deadline: Deadline = { ms: limits.timeoutMs, expired: false };
  try {
    // The deadline is an option of the transport, which ofetch hands to it with the others.
    const options = {
      method: request.method,
      headers: headersOf(request),
      body: request.form?.toString(),
      deadline,
    };
    // The body is the transport's stream (`responseType: "stream"` in the defaults), not a web ReadableStream.
    const response = await $fetch.raw<Readable | null>(request.url, options);
    return await answerOf(response, limits, started);
  } catch (error) {
    return failureOf(error, deadline.expired, limits.timeoutMs, Math.round(performance.now() - started));
  }
}

function headersOf(request: OutgoingRequest): Record<string, string> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${request.apiKey}`,
    // Without it a refused key answers 302 to a login page instead of a 401 (API-NOTES §4).
    Accept: "application/json",
    "User-Agent": "sitesync",
  };
  if (request.form) headers["Content-Type"] = "application/x-www-form-urlencoded";
  return headers;
}

/** A response, its body read within the cap: an answer, or a too-large failure. */
async function answerOf(response: FetchResponse<Readable | null>, { maxBodyBytes, clock }: SendLimits, started: number): Promise<Attempt> {
  const { status, headers } = response;
  const rate = rateInfoOf(status, headers, clock.now());
  const text = await readCapped(response._data ?? null, headers, maxBodyBytes);
  const ms = Math.round(performance.now() - started);
  if (text === undefined) {
    // A listing page of 100 websites is well under 1 MiB: the default cap is far past any real answer.
    const detail =
      `answer body larger than the ${formatBytes(maxBodyBytes)} cap (counted after decompression); not read further ` +
      "(an API answer is well under 1 MiB; the library's maxBodyBytes option raises the cap)";
    return { kind: "failure", reason: "too-large", detail, neverSent: false, cause: undefined, ms, status, rate };
  }
  return { kind: "response", status, headers, text, ms, rate };
}

/** A request that got no answer: timed out, or a connection that failed (and whether it was never sent). */
function failureOf(error: unknown, timedOut: boolean, timeoutMs: number, ms: number): Attempt {
  // ofetch's FetchError exposes the request options (and so the Authorization header): keep only its cause.
  const cause = error instanceof FetchError ? error.cause : error;
  if (timedOut) {
    return { kind: "failure", reason: "timeout", detail: `no answer within ${timeoutMs} ms`, timeoutMs, neverSent: false, cause, ms };
  }
  const code = errorCode(cause);
  const detail = code ? `connection failed (${code})` : `connection failed (${messageOf(cause)})`;
  return { kind: "failure", reason: "network", detail, neverSent: code !== undefined && NEVER_SENT_CODES.has(code), cause, ms };
}

/**
 * The body as UTF-8 text (a byte order mark dropped, as fetch's `text()` does), or undefined (and the stream
 * destroyed, closing the connection) once more than `max` decoded bytes arrived. The transport decompresses as
 * it streams, so a bomb costs at most `max` bytes.
 */
function readCapped(body: Readable | null, headers: HeaderReader, max: number): Promise<string | undefined> {
  if (body === null) return Promise.resolve("");
  const declared = Number(headers.get("content-length"));
  // Without a Content-Encoding the declared length is the decoded length: refuse before reading.
  if (!headers.get("content-encoding") && Number.isFinite(declared) && declared > max) {
    body.destroy();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
      else {
        body.destroy();
        resolve(undefined);
      }
    });
    body.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    });
    body.on("error", reject);
  });
}

function formatBytes(bytes: number): string {
  const mib = bytes / 2 ** 20;
  return mib >= 1 ? `${Number(mib.toFixed(1))} MiB` : `${bytes} bytes`;
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
