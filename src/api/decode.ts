/**
 * Answers into canonical types (DESIGN §4): every number a number (POST/PUT echo what was sent, so `"1"`),
 * flags booleans, null privacy/email/exclude_bots read as 0 like the UI does, lists split by line.
 */
import { ApiError } from "../errors.ts";
import type { LiveProject } from "../model/project.ts";
import { type LiveWebsite, splitLines } from "../model/website.ts";
import { type FieldKind, type Privacy, READABLE_FIELDS, WEBSITE_FIELDS } from "../model/website-fields.ts";
import type { ApiResponse } from "./http.ts";
import { serverText, serverValue } from "./response-body.ts";
import type { DeleteResult, Page, PageMeta } from "./types.ts";

/** A body that is JSON but not the shape the API documents; `decodeResponse` turns it into an ApiError. */
class DecodeError extends Error {
  readonly path: string;
  readonly expected: string;
  readonly got: string;
  constructor(path: string, expected: string, value: unknown, got = JSON.stringify(value) ?? "nothing") {
    super(`${path}: expected ${expected}, got ${got}`);
    this.name = "DecodeError";
    this.path = path;
    this.expected = expected;
    this.got = got;
  }

  /** The same error under `prefix`, in place of the item's own path `from` (a page's item gets its index). */
  under(from: string, prefix: string): DecodeError {
    return new DecodeError(prefix + this.path.slice(from.length), this.expected, undefined, this.got);
  }
}

/** Runs a decoder over a 2xx body; a shape mismatch becomes an ApiError of kind "parse" naming METHOD url status. */
export function decodeResponse<T>(response: ApiResponse, decode: (body: Record<string, unknown>) => T): T {
  try {
    return decode(response.body);
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    throw new ApiError({
      kind: "parse",
      method: response.method,
      url: response.url,
      status: response.status,
      // The value quoted is the server's: it may echo a secret (DESIGN §12).
      message: `unexpected answer: ${error.path}: expected ${error.expected}, got ${serverText(response.exchange, error.got)}`,
      body: serverValue(response.exchange, response.body),
      // The server did commit a 2xx POST; only its echo is unreadable.
      ambiguous: response.method === "POST",
    });
  }
}

type Raw = Record<string, unknown>;

/**
 * Each reader takes where its value is as the object's path and the key in it, joined only for the error: a
 * listing of 100,000 websites would otherwise build a path for each of its 1.1 million values (DESIGN §8).
 */
function at(path: string, key: string | undefined): string {
  return key === undefined ? path : `${path}.${key}`;
}

function object(value: unknown, path: string, key?: string): Raw {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Raw;
  throw new DecodeError(at(path, key), "an object", value);
}

function int(value: unknown, path: string, key?: string, nullAs?: number): number {
  if (value === null || value === undefined) {
    if (nullAs !== undefined) return nullAs;
  } else if (typeof value === "number" && Number.isSafeInteger(value)) {
    return value;
  } else if (typeof value === "string" && /^-?\d+$/.test(value.trim()) && Number.isSafeInteger(Number(value.trim()))) {
    return Number(value.trim());
  }
  throw new DecodeError(at(path, key), "an integer", value);
}

/** An id goes into request paths: only a positive safe integer may (DESIGN §12: a `-1` or `1e21` is refused). */
function id(value: unknown, path: string, key?: string): number {
  const n = int(value, path, key);
  if (n >= 1) return n;
  throw new DecodeError(at(path, key), "a positive integer id", value);
}

/** MySQL SUM() is a DECIMAL, which PDO hands over as a string (API-NOTES §5). */
function decimal(value: unknown, path: string, key?: string): number {
  if (value === null) return 0;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  throw new DecodeError(at(path, key), "a number", value);
}

function bool(value: unknown, path: string, key?: string): boolean {
  if (value === true || value === 1 || value === "1" || value === "true") return true;
  if (value === false || value === 0 || value === "0" || value === "false" || value === null) return false;
  throw new DecodeError(at(path, key), "a boolean", value);
}

function string(value: unknown, path: string, key?: string): string {
  if (typeof value === "string") return value;
  throw new DecodeError(at(path, key), "a string", value);
}

function optionalString(value: unknown, path: string, key?: string): string | null {
  return value === null || value === undefined ? null : string(value, path, key);
}

function privacy(value: unknown, path: string, key?: string): Privacy {
  const n = int(value, path, key, 0);
  if (n === 0 || n === 1 || n === 2) return n;
  throw new DecodeError(at(path, key), "0, 1 or 2", value);
}

/** Reads each kind of readable website field; a null flag reads as 0, like the UI (DESIGN §4). */
const READERS = {
  privacy,
  flag: (value, path, key) => int(value, path, key, 0),
  boolean: bool,
  set: (value, path, key) => splitLines(optionalString(value, path, key)),
} satisfies Partial<Record<FieldKind, (value: unknown, path: string, key: string) => unknown>>;

/** Each readable field with its name in the API and its reader, looked up once rather than per website. */
const READS = READABLE_FIELDS.map((field) => {
  const { kind, api } = WEBSITE_FIELDS[field];
  return { field, api, read: READERS[kind] as (value: unknown, path: string, key: string) => unknown };
});

/**
 * One website object (API-NOTES §2.1). Write-only fields (`exclude_params`, the password) never come back.
 * The answer's object is made canonical in place, since its members are LiveWebsite's: copying each of a
 * listing's 100,000 objects was a sixth of a plan's read. A value that is wrong stops it midway, so the body
 * an error keeps shows the members before it already canonical.
 */
export function decodeWebsite(value: unknown, path = "data"): LiveWebsite {
  const raw = object(value, path);
  raw.id = id(raw.id, path, "id");
  raw.domain = string(raw.domain, path, "domain");
  // The table's loop sets every readable field by its kind, which TypeScript cannot follow. By index: a
  // for...of with destructuring cost a 1,000-page listing ~40 ms more (bench scenario 9).
  for (let i = 0; i < READS.length; i++) {
    const { field, api, read } = READS[i] as (typeof READS)[number];
    raw[field] = read(raw[api], path, api);
  }
  raw.password = bool(raw.password, path, "password");
  raw.favorited_at = optionalString(raw.favorited_at, path, "favorited_at");
  raw.created_at = optionalString(raw.created_at, path, "created_at") ?? "";
  raw.updated_at = optionalString(raw.updated_at, path, "updated_at") ?? "";
  return raw as unknown as LiveWebsite;
}

/** One project object (API-NOTES §5): `result` is a string sum, `reports` an integer, no id. */
export function decodeProject(value: unknown, path = "data"): LiveProject {
  const raw = object(value, path);
  return {
    project: string(raw.project, path, "project"),
    reports: int(raw.reports, path, "reports", 0),
    result: decimal(raw.result ?? null, path, "result"),
    created_at: optionalString(raw.created_at, path, "created_at") ?? "",
  };
}

/** `{data: {...}}`, the envelope of show, store and update. */
export function decodeItem<T>(decode: (value: unknown, path: string) => T): (body: Raw) => T {
  return (body) => decode(body.data, "data");
}

/** One item of a page; its index is put into the path only when the item is wrong (a page of 100 would build 100). */
function decodeItemAt<T>(decode: (value: unknown, path: string) => T, item: unknown, index: number): T {
  try {
    return decode(item, "data[]");
  } catch (error) {
    throw error instanceof DecodeError ? error.under("data[]", `data[${index}]`) : error;
  }
}

/** A paginated listing (API-NOTES §3). `meta` and `links` are optional: a proxy may strip them (DESIGN §5). */
export function decodePage<T>(decode: (value: unknown, path: string) => T): (body: Raw) => Page<T> {
  return (body) => {
    if (!Array.isArray(body.data)) throw new DecodeError("data", "an array", body.data);
    const page: Page<T> = { data: body.data.map((item, i) => decodeItemAt(decode, item, i)) };
    if (body.meta !== undefined && body.meta !== null) page.meta = decodeMeta(object(body.meta, "meta"));
    if (body.links !== undefined && body.links !== null) {
      const links = object(body.links, "links");
      page.links = { next: optionalString(links.next, "links.next") };
    }
    return page;
  };
}

function decodeMeta(raw: Raw): PageMeta {
  const nullable = (value: unknown, path: string) => (value === null || value === undefined ? null : int(value, path));
  return {
    current_page: int(raw.current_page, "meta.current_page"),
    last_page: int(raw.last_page, "meta.last_page"),
    per_page: int(raw.per_page, "meta.per_page"),
    total: int(raw.total, "meta.total"),
    from: nullable(raw.from, "meta.from"),
    to: nullable(raw.to, "meta.to"),
  };
}

/** `{"id":12,"object":"website","deleted":true}`; a project's `id` is its name (API-NOTES §2.6, §5). */
export function decodeDeleted(idType: "website" | "project"): (body: Raw) => DeleteResult {
  return (body) => {
    if (body.deleted !== true) throw new DecodeError("deleted", "true", body.deleted);
    return { id: idType === "website" ? id(body.id, "id") : string(body.id, "id"), deleted: true };
  };
}
