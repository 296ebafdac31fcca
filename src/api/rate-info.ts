/**
 * What a response says about the rate limit (API-NOTES §1): `X-RateLimit-Limit`, `X-RateLimit-Remaining`, and on
 * a 429 when to retry (`Retry-After`, else `X-RateLimit-Reset`). The pacing that uses it is `rate-gate.ts`.
 */

/** What is read of an answer's headers: one by its name, any case (the transport's `HeaderMap`). */
export interface HeaderReader {
  get(name: string): string | null;
}

/** What one response said about the rate limit. */
export interface RateInfo {
  limit?: number;
  remaining?: number;
  /** A 429: the server refused the request for rate reasons. */
  throttled?: boolean;
  /** On a 429, when the server says a request will be accepted again (epoch ms). */
  retryAt?: number;
  /** The header that set `retryAt`, as received (digits or a date only), for the message when it is too far. */
  waitHeader?: string;
}

/** Reads the rate-limit headers of a response received at `now`. */
export function rateInfoOf(status: number, headers: HeaderReader, now: number): RateInfo {
  const info: RateInfo = {};
  const limit = intHeader(headers, "x-ratelimit-limit");
  const remaining = intHeader(headers, "x-ratelimit-remaining");
  if (limit !== undefined) info.limit = limit;
  if (remaining !== undefined) info.remaining = remaining;
  if (status !== 429) return info;
  info.throttled = true;
  const wait = retryAfterOf(headers, now) ?? resetOf(headers, now);
  if (wait) Object.assign(info, wait);
  return info;
}

/**
 * `Retry-After` as seconds or an HTTP date (RFC 9110 §10.2.3), as the time to retry at (epoch ms); a date in
 * the past means now. A negative, fractional or garbage value counts as no value (DESIGN §12): `Date.parse`
 * alone would read "1" as the year 2001, so only the IMF-fixdate form is taken as a date.
 */
export function retryAfterOf(headers: HeaderReader, now: number): { retryAt: number; waitHeader: string } | undefined {
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  const waitHeader = `Retry-After: ${value}`;
  if (/^\d{1,15}$/.test(value)) return { retryAt: now + Number(value) * 1000, waitHeader };
  if (!HTTP_DATE.test(value) || Number.isNaN(Date.parse(value))) return undefined;
  return { retryAt: Math.max(now, Date.parse(value)), waitHeader };
}

const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Laravel's `X-RateLimit-Reset`: a unix timestamp of the server's clock (API-NOTES §1). */
function resetOf(headers: HeaderReader, now: number): { retryAt: number; waitHeader: string } | undefined {
  const reset = intHeader(headers, "x-ratelimit-reset");
  if (reset === undefined) return undefined;
  return { retryAt: Math.max(now, reset * 1000), waitHeader: `X-RateLimit-Reset: ${reset}` };
}

function intHeader(headers: HeaderReader, name: string): number | undefined {
  const value = headers.get(name)?.trim();
  return value && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}
