import { STATUS_CODES } from "node:http";
import { ApiError } from "../errors.ts";
import { scrub, scrubValue } from "./redact.ts";

/** Where an answer came from, for error messages (the URL is already redacted). */
export interface Exchange {
  method: string;
  url: string;
  secrets: readonly string[];
}

const MAX_RAW_BODY = 500;

/**
 * The JSON object of a 2xx answer. An HTML page, an empty or a truncated body becomes an ApiError of kind
 * "parse" naming METHOD url status; a POST's is ambiguous, since the server did commit it.
 */
export function parseJsonBody(exchange: Exchange, status: number, text: string): Record<string, unknown> {
  const json = tryParse(text);
  if (isObject(json)) return json;
  throw new ApiError({
    kind: "parse",
    method: exchange.method,
    url: exchange.url,
    status,
    message: `expected a JSON object, got ${describeBody(text, json)}`,
    body: rawBody(text, exchange.secrets),
    ambiguous: exchange.method === "POST",
  });
}

/**
 * The ApiError for a non-2xx answer, with the server's message. Field errors come from the phpAnalytics
 * 422 bag under `message` (API-NOTES §4) or Laravel's standard `{message, errors}`.
 */
export function errorFromResponse(exchange: Exchange, status: number, text: string, ambiguous = false): ApiError {
  const json = tryParse(text);
  const { method, url, secrets } = exchange;
  if (!isObject(json)) {
    const reason = STATUS_CODES[status] ?? `HTTP ${status}`;
    const message = `${reason} (${describeBody(text, json)})`;
    return new ApiError({ kind: "http", method, url, status, message, body: rawBody(text, secrets), ambiguous });
  }
  const bag = fieldBag(json.errors) ?? fieldBag(json.message);
  let message = typeof json.message === "string" ? json.message : undefined;
  if (message === undefined && bag) message = summarize(bag);
  message = scrub(message ?? STATUS_CODES[status] ?? `HTTP ${status}`, secrets);
  const fieldErrors = bag === undefined ? undefined : (scrubValue(bag, secrets) as Record<string, string[]>);
  return new ApiError({ kind: "http", method, url, status, message, fieldErrors, body: scrubValue(json, secrets), ambiguous });
}

/** `{field: ["msg", ...]}` (values may also be single strings), or undefined when `value` is not one. */
function fieldBag(value: unknown): Record<string, string[]> | undefined {
  if (!isObject(value)) return undefined;
  const bag: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(value)) {
    const list = Array.isArray(messages) ? messages : [messages];
    bag[field] = list.map((m) => (typeof m === "string" ? m : JSON.stringify(m)));
  }
  return Object.keys(bag).length > 0 ? bag : undefined;
}

function summarize(bag: Record<string, string[]>): string {
  return Object.entries(bag)
    .map(([field, messages]) => `${field}: ${messages.join(" ")}`)
    .join("; ");
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeBody(text: string, json: unknown): string {
  const trimmed = text.trim();
  if (trimmed === "") return "an empty body";
  if (trimmed.startsWith("<")) return "an HTML page (a login page, a proxy, or a URL that is not the API?)";
  if (json !== undefined) return `JSON that is not an object: ${trimmed.slice(0, 40)}`;
  return `invalid or truncated JSON (${text.length} characters)`;
}

function rawBody(text: string, secrets: readonly string[]): string {
  const cut = text.length > MAX_RAW_BODY ? `${text.slice(0, MAX_RAW_BODY)}…` : text;
  return scrub(cut, secrets);
}
