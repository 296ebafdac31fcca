import { ApiError } from "../errors.ts";
import { repeatsSecret, WITHHELD, withholdValue } from "./redact.ts";

/** Where an answer came from, for error messages (the URL is already redacted). */
export interface Exchange {
  method: string;
  url: string;
  /** The keys in use, masked `***` in what we build. */
  secrets: readonly string[];
  /** Every secret of the run (keys, passwords, environment values), read when an answer is judged. */
  runSecrets: () => Iterable<string>;
  /** What this request sent that is ours, not secret (field names, the domain): a secret inside one is no echo. */
  ours: readonly string[];
}

/**
 * Free text of a server's answer, or the WITHHELD note when it repeats a secret of the run (DESIGN §12: a
 * server may quote the password it was sent in a 422, or echo the key in a body).
 */
export function serverText(exchange: Exchange, text: string): string {
  return repeatsSecret(text, exchange.runSecrets(), exchange.ours) ? WITHHELD : text;
}

/** A parsed body kept for `--verbose` and results files, withheld whole when any of it repeats a secret. */
export function serverValue(exchange: Exchange, value: unknown): unknown {
  return withholdValue(value, exchange.runSecrets(), exchange.ours);
}

const MAX_RAW_BODY = 500;

// Not an ES import of node:http, which loads undici as it reads that module's exports (transport.ts).
const { STATUS_CODES } = process.getBuiltinModule("node:http");

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
    message: `expected a JSON object, got ${describeBody(exchange, text, json)}`,
    body: rawBody(exchange, text),
    ambiguous: exchange.method === "POST",
  });
}

/**
 * The ApiError for a non-2xx answer, with the server's message. Field errors come from the phpAnalytics
 * 422 bag under `message` (API-NOTES §4) or Laravel's standard `{message, errors}`.
 */
export function errorFromResponse(exchange: Exchange, status: number, text: string, ambiguous = false): ApiError {
  const json = tryParse(text);
  const { method, url } = exchange;
  if (!isObject(json)) {
    const reason = STATUS_CODES[status] ?? `HTTP ${status}`;
    const message = `${reason} (${describeBody(exchange, text, json)})`;
    return new ApiError({ kind: "http", method, url, status, message, body: rawBody(exchange, text), ambiguous });
  }
  const bag = fieldBag(json.errors) ?? fieldBag(json.message);
  let message = typeof json.message === "string" ? serverText(exchange, json.message) : undefined;
  if (message === undefined && bag) message = summarize(bag, exchange);
  message ??= STATUS_CODES[status] ?? `HTTP ${status}`;
  const fieldErrors = bag === undefined ? undefined : withholdBag(bag, exchange);
  // The API gives no code for a taken domain, only `unique`'s words (API-NOTES §4); they are read here alone.
  const domainTaken = status === 422 && (bag?.domain?.some((m) => m.includes("has already been taken")) ?? false);
  const body = serverValue(exchange, json);
  return new ApiError({ kind: "http", method, url, status, message, fieldErrors, body, ambiguous, domainTaken });
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

function summarize(bag: Record<string, string[]>, exchange: Exchange): string {
  return Object.entries(withholdBag(bag, exchange))
    .map(([field, messages]) => `${field}: ${messages.join(" ")}`)
    .join("; ");
}

/** Each field name and message on its own: one that repeats a secret does not hide the others. */
function withholdBag(bag: Record<string, string[]>, exchange: Exchange): Record<string, string[]> {
  const clean: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(bag)) {
    const name = serverText(exchange, field);
    clean[name] = [...(clean[name] ?? []), ...messages.map((m) => serverText(exchange, m))];
  }
  return clean;
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

function describeBody(exchange: Exchange, text: string, json: unknown): string {
  const trimmed = text.trim();
  if (trimmed === "") return "an empty body";
  if (trimmed.startsWith("<")) return "an HTML page (a login page, a proxy, or a URL that is not the API?)";
  if (json !== undefined) return `JSON that is not an object: ${serverText(exchange, trimmed.slice(0, 40))}`;
  return `invalid or truncated JSON (${text.length} characters)`;
}

function rawBody(exchange: Exchange, text: string): string {
  // Searched whole: a secret cut in two by the limit would still be half shown.
  if (repeatsSecret(text, exchange.runSecrets(), exchange.ours)) return WITHHELD;
  return text.length > MAX_RAW_BODY ? `${text.slice(0, MAX_RAW_BODY)}…` : text;
}
