/** What a route handler gets and gives back, and the list parameters both APIs share. */
import type { InputBag } from "./_input.ts";
import { isNumeric, looseEqualsInt } from "./_php.ts";
import type { Reply } from "./_reply.ts";
import type { SandboxStore } from "./store.ts";

export interface RouteSettings {
  defaultPerPage: number;
  websiteLimit: number;
  putMissing: 500 | 404;
  /** Store `exclude_ips` without its last entry: a server that rewrites a value, for `apply --verify`. */
  dropLastExcludedIp: boolean;
}

export interface RouteContext {
  /** Route parameters, URL-decoded. */
  params: string[];
  /** `$request->input()` after TrimStrings and ConvertEmptyStringsToNull. */
  input: InputBag;
  /** `http://host:port`, from the Host header like Laravel's URL generator. */
  baseUrl: string;
  expectsJson: boolean;
  store: SandboxStore;
  settings: RouteSettings;
  now: Date;
}

export interface RouteResult {
  reply: Reply;
  /** The request changed the account (for persistence and drop-after-commit faults). */
  wrote?: boolean;
}

export type Handler = (context: RouteContext) => RouteResult;

/** A scalar request value, or null: arrays never make it into a LIKE or a link. */
export function scalar(value: unknown): string | number | boolean | null {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? value : null;
}

const PER_PAGE = [10, 25, 50, 100];

/**
 * `in_array($request->input('per_page'), [10, 25, 50, 100])`, loose, else the `paginate` setting
 * (API-NOTES §2.2). `echo` is what the links append: the value as sent.
 */
export function perPageOf(value: unknown, fallback: number): { count: number; echo: unknown } {
  const raw = scalar(value);
  if (!PER_PAGE.some((n) => looseEqualsInt(raw, n))) return { count: fallback, echo: fallback };
  const count = typeof raw === "string" && isNumeric(raw) ? Math.trunc(Number(raw.trim())) : Number(raw);
  return { count, echo: raw };
}

/** `in_array($value, $allowed) ? $value : $fallback` for the string whitelists (sort_by, sort, search_by). */
export function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.find((candidate) => candidate === value) ?? fallback;
}
