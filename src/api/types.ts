/** The typed surface of the API client (API-NOTES §2, §5). Every value comes back in canonical types. */
import type { LiveProject } from "../model/project.ts";
import type { LiveWebsite } from "../model/website.ts";
import type { WebsiteFields } from "../model/website-fields.ts";
import type { Clock } from "./clock.ts";
import type { LearnedRate, RateState, ReadProgress, Scheduler, ServerWait } from "./scheduler.ts";

export type { Clock, LearnedRate, RateState, ReadProgress, ServerWait };

export type PerPage = 10 | 25 | 50 | 100;

export type SortOrder = "asc" | "desc";

export interface ListWebsitesParams {
  search?: string;
  search_by?: "domain";
  /** `1`/`true`: favorites only; `0`/`false`: non-favorites only. Sent as `1`/`0` (API-NOTES §2.2). */
  favorite?: boolean | 0 | 1;
  sort_by?: "id" | "domain";
  sort?: SortOrder;
  per_page?: PerPage;
  page?: number;
}

export interface ListProjectsParams {
  search?: string;
  search_by?: "project";
  sort_by?: "created_at" | "project";
  sort?: SortOrder;
  per_page?: PerPage;
  page?: number;
}

/** Laravel's LengthAwarePaginator meta (API-NOTES §3). */
export interface PageMeta {
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  from: number | null;
  to: number | null;
}

export interface Page<T> {
  data: T[];
  /** Absent when a server (or proxy) drops it; `links.next` is then the way on (DESIGN §5). */
  meta?: PageMeta;
  links?: { first?: string | null; last?: string | null; prev?: string | null; next: string | null };
}

/** The body of a POST: every website field but `favorite`, which only PUT sets (API-NOTES §2.4, DESIGN §4). */
export interface WebsiteCreateInput extends Omit<WebsiteFields, "favorite"> {
  domain: string;
}

/** The body of a PUT: any website field. */
export interface WebsiteUpdateInput extends Omit<WebsiteFields, "password"> {
  /** `null` clears the password (only valid while privacy is not 2: API-NOTES §2.5). */
  password?: string | null;
}

export interface DeleteResult {
  /** The website id, or the project name (API-NOTES §2.6, §5). */
  id: number | string;
  deleted: true;
}

/** One finished HTTP attempt, for `--verbose` and the request counters. The URL never holds the key. */
export interface RequestLogEntry {
  method: string;
  url: string;
  status?: number;
  ms: number;
  /** 1 for the first try, 2+ for retries. */
  attempt: number;
  rateLimit?: number;
  rateRemaining?: number;
  /** Set when no answer came (network error, timeout). */
  error?: string;
}

export interface ClientOptions {
  /**
   * Schedulers shared with other clients of one run, by server origin: a client to an origin already here
   * uses its scheduler (its concurrency and rate budget), so accounts on one server share its budget (DESIGN §6).
   */
  schedulers?: Map<string, Scheduler>;
  /** Base address without `/api/v1` (a trailing `/api/v1` or `/` is dropped). */
  websitesUrl?: string;
  projectsUrl?: string;
  apiKey: string;
  /** Key for the projects service when it differs (`SITESYNC_PROJECTS_API_KEY`). */
  projectsApiKey?: string;
  /** Requests in flight at once across the whole run. Default 4. */
  concurrency?: number;
  /** Per-attempt timeout in ms. Default 30,000. */
  timeoutMs?: number;
  /** Retries after the first attempt for GET/PUT/DELETE on network errors, timeouts and 5xx. Default 4. */
  retries?: number;
  /** First backoff delay in ms, doubled each retry, with jitter. Default 500. */
  retryBaseMs?: number;
  /**
   * The rate-limit window the server counts `X-RateLimit-Limit` in, in ms, said outright (`--rate-window`).
   * The headers give the count but not the window: without this, the window is learned per server from the
   * counter jumping back or one 429's `Retry-After` (DESIGN §6), pacing as if it were the real API's minute
   * (`throttle:60,1`, API-NOTES §1) until then; at most one 429 per server, then `onRateLearned` is told.
   */
  rateWindowMs?: number | undefined;
  /**
   * The longest wait a server may ask for with `Retry-After` or `X-RateLimit-Reset`, in ms; a longer one ends
   * the run with an ApiError naming the wait (DESIGN §12). Default 300,000 (5 minutes).
   */
  maxWaitMs?: number;
  /** The largest answer body read, in bytes after decompression (DESIGN §12). Default 32 MiB. */
  maxBodyBytes?: number;
  onRequest?: (entry: RequestLogEntry) => void;
  /**
   * Called when a server asks for a pause (a 429's `Retry-After` or `X-RateLimit-Reset`) that the run then
   * waits out, so a run's time is its plan's estimate plus the waits it reports (DESIGN §12).
   */
  onWait?: ((wait: ServerWait) => void) | undefined;
  /** Told how full reads go: pages, re-reads, waits for the rate budget (DESIGN §5). */
  onProgress?: ((event: ReadProgress) => void) | undefined;
  /** Called once per server when its rate-limit window is learned (not when `rateWindowMs` says it). */
  onRateLearned?: ((learned: LearnedRate) => void) | undefined;
  /**
   * The run's other secrets (passwords, values read from the environment), read as answers arrive: a server's
   * message or body that repeats one (or a key) is withheld whole (DESIGN §12). The keys are always known.
   */
  secrets?: () => Iterable<string>;
  /**
   * Stops the run gracefully (SIGINT, SIGTERM): once aborted, no new request is sent (each fails as
   * `stopped`), while requests already in flight finish, bounded by the timeout. Its `reason` names why.
   */
  stop?: AbortSignal | undefined;
  /** Where pacing, retries and rate headers read the time and wait (STYLE 17: tests drive it). Default: the system's. */
  clock?: Clock | undefined;
}

export interface WebsitesApi {
  list(params?: ListWebsitesParams): Promise<Page<LiveWebsite>>;
  show(id: number): Promise<LiveWebsite>;
  create(input: WebsiteCreateInput): Promise<LiveWebsite>;
  update(id: number, input: WebsiteUpdateInput): Promise<LiveWebsite>;
  delete(id: number): Promise<DeleteResult>;
  /** Every website, per_page 100, sorted by id ascending, integrity-checked (DESIGN §5). Never partial. */
  readAll(): Promise<LiveWebsite[]>;
  /** The website with exactly this (normalized) domain, if any: a search, then an exact match. */
  find(domain: string): Promise<LiveWebsite | undefined>;
}

export interface ProjectsApi {
  list(params?: ListProjectsParams): Promise<Page<LiveProject>>;
  /** `DELETE /api/v1/projects/{name}`; a 404 throws an ApiError with status 404. */
  delete(project: string): Promise<DeleteResult>;
  /** Every project, per_page 100, sorted by name ascending, integrity-checked. Never partial. */
  readAll(): Promise<LiveProject[]>;
}

export interface RequestStats {
  /** Requests sent, per method, retries included. */
  sent: Record<string, number>;
  /** 429 answers received. */
  throttled: number;
  retries: number;
  /** The last `X-RateLimit-Limit` the server sent, if any. */
  rateLimit?: number;
  /**
   * What the pacing knows now of the rate limit of the websites server (the projects server's when there is
   * none): the limit, the window (said, learned or assumed) and the budget left. For the plan's estimate.
   */
  rate?: RateState;
}

export interface Client {
  /** The normalized base URLs this client talks to. */
  readonly target: { websites?: string; projects?: string };
  websites: WebsitesApi;
  projects: ProjectsApi;
  stats(): RequestStats;
}
