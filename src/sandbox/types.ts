/**
 * Public shapes of the sandbox (DESIGN §7): a local server imitating phpAnalytics "Websites" and phpRank
 * "Projects" as API-NOTES describes them.
 */

/** Injected faults, drawn from a seeded PRNG so that a run can be replayed. */
export interface FaultOptions {
  /** PRNG seed (default 1). The same seed and the same request sequence give the same faults. */
  seed?: number;
  /** Chance (0..1) of a 500 `{"message":"Server Error"}` answer, WITHOUT doing the work. */
  errorRate?: number;
  /** Chance of destroying the socket without any answer, without doing the work. */
  resetRate?: number;
  /** Chance of answering only after `slowMs` (the work is done at once). */
  slowRate?: number;
  slowMs?: number;
  /** Writes (POST/PUT/PATCH/DELETE) only: do the work, then destroy the socket before answering. */
  dropAfterCommitRate?: number;
  /** Restrict faults to these methods (default: every method). */
  methods?: string[];
}

/** A website to put in the account at start. Unset fields get the values the UI would give. */
export interface SeedWebsite {
  domain: string;
  id?: number;
  privacy?: number | null;
  email?: number | null;
  /** Stored, never returned: the API answers only `password: true|false` (API-NOTES §2.1). */
  password?: string | null;
  exclude_bots?: number | null;
  /** Write-only (API-NOTES §2.1); one entry per line when given as a string. */
  exclude_params?: string | string[] | null;
  exclude_ips?: string | string[] | null;
  favorite?: boolean;
  /** Raw `YYYY-MM-DD HH:MM:SS`; defaults to `created_at` when `favorite` is true. */
  favorited_at?: string | null;
  /** ISO-8601; default: now. */
  created_at?: string;
  updated_at?: string;
}

/** A phpRank project: the aggregate of a host's reports (API-NOTES §5). */
export interface SeedProject {
  project: string;
  reports?: number;
  /** The sum of the reports' 0–100 scores. */
  result?: number;
  /** ISO-8601 date of the earliest report. */
  created_at?: string;
}

/** A website as the sandbox's database holds it (integers from the DB, raw `favorited_at`). */
export interface StoredWebsite {
  id: number;
  domain: string;
  privacy: number | null;
  email: number | null;
  password: string | null;
  exclude_bots: number | null;
  exclude_params: string | null;
  exclude_ips: string | null;
  /** Raw `YYYY-MM-DD HH:MM:SS` (no cast in the model: API-NOTES §2.1) or null. */
  favorited_at: string | null;
  /** ISO `…T…​.000000Z`. */
  created_at: string;
  updated_at: string;
}

export interface StoredProject {
  project: string;
  reports: number;
  result: number;
  created_at: string;
}

/** Options of {@link startSandbox}: the account it starts with, the API's limits, and injected faults. */
export interface SandboxOptions {
  /** 0 (default) picks a free port. The host is always 127.0.0.1. */
  port?: number;
  /** Key accepted by both APIs; default: a fresh 64-character alphanumeric key (API-NOTES §1). */
  apiKey?: string;
  /** A separate key for /api/v1/projects (default: `apiKey`). */
  projectsApiKey?: string;
  /** Number of websites to generate deterministically (`site-00001.example.com`, ...). */
  seed?: number;
  /** Number of projects to generate deterministically (`project-00001.example.org`, ...). */
  seedProjects?: number;
  /** Explicit websites, added after the seeded ones. */
  websites?: SeedWebsite[];
  /** Explicit projects, added after the seeded ones. */
  projects?: SeedProject[];
  /** Added before every answer (default 0). */
  latencyMs?: number;
  /**
   * Not the real API: store `exclude_ips` without its last entry on every write, as a server that rewrites a
   * value would, so that `apply --verify` has something that does not converge (default false).
   */
  dropLastExcludedIp?: boolean;
  /**
   * Awaited before each request is processed (after `latencyMs`): a test holds requests in flight until its
   * own step is done (a signal sent, say), so it synchronises on the run's progress instead of on time.
   */
  beforeAnswer?: (request: { method: string; path: string }) => Promise<void> | undefined;
  /**
   * Where the throttle and the timestamps read the time (epoch ms); default the system's. A test that shares
   * one clock with the client counts 429s exactly, without the wall clock (STYLE 17).
   */
  clock?: { now(): number };
  /** Requests per window (default 60, the real `throttle:60,1`); 0 disables the throttle and its headers. */
  rateLimit?: number;
  /** Default 60 000. */
  rateWindowMs?: number;
  /** Used when `per_page` is not one of 10, 25, 50, 100 (default 10: API-NOTES §2.2). */
  defaultPerPage?: number;
  /** Plan limit: -1 unlimited (default); N refuses a create once the account holds N websites (API-NOTES §4). */
  websiteLimit?: number;
  /** false: every /websites request gets the `api.guard` 403 (default true). */
  apiFeature?: boolean;
  /** PUT on a missing website: 500 like the real v31 bug (default) or the intended 404 (API-NOTES §2.5). */
  putMissing?: 500 | 404;
  /** Random faults (5xx, resets, slow or dropped answers), seeded so a run can be repeated; default none. */
  faults?: FaultOptions;
  /** JSON file loaded at start when it exists (instead of seeding) and written after every write. */
  persist?: string;
  /** Receives one line per request: `METHOD path?query status ms`. Never contains the key. */
  log?: (line: string) => void;
  /** Domains owned by another user: never listed, but taken for the global `unique` rule (API-NOTES §2.4). */
  otherUsersDomains?: string[];
}

export type FaultKind = "error" | "reset" | "slow" | "drop";

/** One request the sandbox received. */
export interface SandboxRequest {
  /** The effective method (after `_method` spoofing). */
  method: string;
  /** Path without the query string. */
  path: string;
  /** Query parameters, without `api_token`. */
  query: Record<string, string>;
  /**
   * The fields of a form or JSON body as received (before TrimStrings), without `api_token`; a password's
   * value reads `(sensitive)`, so that the list never holds a secret. Absent without a body.
   */
  form?: Record<string, string>;
  /** HTTP status sent; 0 when the socket was destroyed without an answer. */
  status: number;
  /** Arrival time, epoch ms. */
  ts: number;
  durationMs: number;
  fault?: FaultKind;
}

export interface SandboxStats {
  byMethod: Record<string, number>;
  /** Requests answered 429. */
  throttled: number;
  /** GET on the collections /api/v1/websites and /api/v1/projects. */
  listRequests: number;
  /** POST, PUT, PATCH and DELETE. */
  writeRequests: number;
}
