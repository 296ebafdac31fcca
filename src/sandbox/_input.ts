/**
 * Request input the way Laravel sees it (API-NOTES §1): query plus a form, multipart or JSON body, with
 * TrimStrings (all but `password`) and ConvertEmptyStringsToNull applied to both.
 */
import type { IncomingMessage } from "node:http";

export type InputValue = string | number | boolean | null | InputValue[] | { [key: string]: InputValue };
export type InputBag = Record<string, InputValue>;

export interface RequestInput {
  query: InputBag;
  /** `$request->input()`: the body first, the query fills the keys the body lacks. */
  all: InputBag;
}

/** A body over this size gets 413, like PHP's post_max_size. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

export class BodyTooLargeError extends Error {}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError("request body too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Parses and cleans the input. `realMethod` is the wire method: PHP parses multipart for POST only. */
export function parseInput(realMethod: string, contentType: string, rawQuery: string, body: Buffer): RequestInput {
  const query = clean(parseUrlEncoded(rawQuery));
  const parsed = clean(parseBody(realMethod, contentType.toLowerCase(), body));
  return { query, all: { ...query, ...parsed } };
}

function parseBody(method: string, contentType: string, body: Buffer): InputBag {
  if (body.length === 0) return {};
  // Symfony's isJson(): any `/json` or `+json` content type; a body that does not decode gives no input.
  if (contentType.includes("/json") || contentType.includes("+json")) {
    try {
      const value: unknown = JSON.parse(body.toString("utf8"));
      return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as InputBag) : {};
    } catch {
      return {};
    }
  }
  if (method === "GET" || method === "HEAD") return {};
  if (contentType.startsWith("application/x-www-form-urlencoded")) return parseUrlEncoded(body.toString("utf8"));
  // PHP parses multipart/form-data natively for POST only: a multipart PUT has no fields (API-NOTES §1).
  if (contentType.startsWith("multipart/form-data") && method === "POST") return parseMultipart(contentType, body);
  return {};
}

/** `parse_str`: the last of repeated keys wins; `a[]=x` and `a[k]=x` make arrays (one level is enough here). */
function parseUrlEncoded(text: string): InputBag {
  const bag: InputBag = {};
  for (const [key, value] of new URLSearchParams(text)) setField(bag, key, value);
  return bag;
}

function setField(bag: InputBag, key: string, value: string): void {
  const match = /^([^[]+)\[([^\]]*)\]/.exec(key);
  if (!match) {
    bag[key] = value;
    return;
  }
  const [, base, sub] = match as unknown as [string, string, string];
  const current = bag[base];
  if (sub === "") {
    bag[base] = Array.isArray(current) ? [...current, value] : [value];
  } else {
    const object = current !== null && typeof current === "object" && !Array.isArray(current) ? current : {};
    object[sub] = value;
    bag[base] = object;
  }
}

function parseMultipart(contentType: string, body: Buffer): InputBag {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) return {};
  const bag: InputBag = {};
  // latin1 keeps every byte as one char, so splitting cannot break a multi-byte character.
  for (const part of body.toString("latin1").split(`--${marker}`)) {
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd < 0) continue;
    const headers = part.slice(0, headerEnd);
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)?.[1];
    if (name === undefined || /\bfilename=/i.test(headers)) continue;
    const value = part.slice(headerEnd + 4).replace(/\r\n$/, "");
    setField(bag, Buffer.from(name, "latin1").toString("utf8"), Buffer.from(value, "latin1").toString("utf8"));
  }
  return bag;
}

/** TrimStrings never trims these keys (Laravel's default `except`). */
const UNTRIMMED = new Set(["password", "password_confirmation", "current_password"]);

function clean(bag: InputBag): InputBag {
  const result: InputBag = {};
  for (const [key, value] of Object.entries(bag)) result[key] = cleanValue(value, UNTRIMMED.has(key));
  return result;
}

function cleanValue(value: InputValue, keepSpaces: boolean): InputValue {
  if (typeof value === "string") {
    const trimmed = keepSpaces ? value : value.replace(/^[\s\uFEFF\u200B]+|[\s\uFEFF\u200B]+$/g, "");
    return trimmed === "" ? null : trimmed;
  }
  if (Array.isArray(value)) return value.map((item) => cleanValue(item, false));
  if (value !== null && typeof value === "object") {
    const result: InputBag = {};
    for (const [key, item] of Object.entries(value)) result[key] = cleanValue(item, false);
    return result;
  }
  return value;
}

/** Laravel's `expectsJson()`: an AJAX request accepting anything, or a first acceptable type that is JSON. */
export function expectsJson(accept: string | undefined, requestedWith: string | undefined): boolean {
  const first = firstAcceptable(accept ?? "");
  if (first.includes("/json") || first.includes("+json")) return true;
  const acceptsAnything = first === "" || first === "*/*" || first === "*";
  return requestedWith === "XMLHttpRequest" && acceptsAnything;
}

function firstAcceptable(accept: string): string {
  const types = accept
    .split(",")
    .map((entry, index) => {
      const [type = "", ...params] = entry.split(";").map((s) => s.trim());
      const q = params.find((p) => p.startsWith("q="));
      return { type: type.toLowerCase(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.type !== "");
  types.sort((a, b) => b.q - a.q || a.index - b.index);
  return types[0]?.type ?? "";
}
