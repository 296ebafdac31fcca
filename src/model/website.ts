/**
 * The canonical website: one shape for what the API returns (Live) and what the config asks for (Desired),
 * so that `plan` compares like with like (DESIGN §1, §4).
 */

/** 0 = public, 1 = private, 2 = password (API-NOTES §2.4). */
export type Privacy = 0 | 1 | 2;

/** The config's words for the API's privacy numbers, by number: `PRIVACY_NAMES[2]` is `"password"`. */
export const PRIVACY_NAMES = ["public", "private", "password"] as const satisfies readonly string[];
export type PrivacyName = (typeof PRIVACY_NAMES)[number];

/** A website as the API holds it, in canonical types (every number a number, flags booleans, lists arrays). */
export interface LiveWebsite {
  id: number;
  domain: string;
  privacy: Privacy;
  /** Periodic email reports. The API has no range check (API-NOTES §2.4), so any integer may come back. */
  email: number;
  /** Whether a password is stored; the password itself is never returned (API-NOTES §2.1). */
  password: boolean;
  exclude_bots: number;
  /** One entry per stored line, in stored order; compare as a set. */
  exclude_ips: string[];
  favorite: boolean;
  favorited_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The fields a config can manage on a website, in canonical types. Absent means unmanaged. */
export interface WebsiteFields {
  privacy?: Privacy;
  /** Write-only: never returned by the API (API-NOTES §2.1). */
  password?: string;
  email?: number;
  exclude_bots?: number;
  /** Write-only: accepted and stored, never returned (API-NOTES §2.1). `&` alone drops all parameters. */
  exclude_params?: string[];
  exclude_ips?: string[];
  favorite?: boolean;
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

/** Fields the API accepts but never returns (DESIGN §3). */
export const WRITE_ONLY_FIELDS = ["password", "exclude_params"] as const;

export type WriteOnlyField = (typeof WRITE_ONLY_FIELDS)[number];

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
