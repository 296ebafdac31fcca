/**
 * The canonical website: one shape for what the API returns (Live) and what the config asks for (Desired),
 * so that `plan` compares like with like (DESIGN §1, §4).
 */
import type { ReadableFields, WebsiteFields } from "./website-fields.ts";

/**
 * A website as the API holds it, in canonical types (every number a number, flags booleans, lists arrays).
 * The managed fields are those of `WEBSITE_FIELDS` that the API returns.
 */
export interface LiveWebsite extends ReadableFields {
  id: number;
  domain: string;
  /** Whether a password is stored; the password itself is never returned (API-NOTES §2.1). */
  password: boolean;
  favorited_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Where a config entry was written, for diagnostics and annotations. */
export interface SourcePos {
  file: string;
  line: number;
  column: number;
}

export interface DesiredWebsite extends WebsiteFields {
  /** Normalized (see `normalizeDomain`). */
  domain: string;
  /** `absent` is a tombstone: delete explicitly, without prune. */
  state: "present" | "absent";
  source?: SourcePos;
}

/**
 * The domain as the API stores it (API-NOTES §2.4): lowercase, no `http://`/`https://` anywhere, every `www.`
 * removed when it starts with `www.`; then a trailing `/` and `.` are dropped (DESIGN §4).
 */
export function normalizeDomain(input: string): string {
  let d = input.trim().toLowerCase().replaceAll("https://", "").replaceAll("http://", "");
  if (d.startsWith("www.")) d = d.replaceAll("www.", "");
  return d.replace(/[/.]+$/, "");
}

/**
 * The domain rule of StoreWebsiteRequest (API-NOTES §2.4), applied by the API after its pre-processing.
 * A name needs a dot (so `localhost` fails) unless it is an IPv4 address.
 */
export const API_DOMAIN_REGEX =
  /^(?!:\/\/)(?=.{1,255}$)((.{1,63}\.){1,127}(?![0-9]*$)[a-z0-9-]+\.?)$|^((25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)(\.|$)){4}$/i;

/** Splits a stored one-per-line list the way the tracker does (`preg_split('/\n|\r/')`, empties dropped). */
export function splitLines(value: string | null | undefined): string[] {
  if (!value) return [];
  return value.split(/\n|\r/).filter((entry) => entry.trim() !== "").map((entry) => entry.trim());
}
