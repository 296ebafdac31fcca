/**
 * Scoped reads (DESIGN §3 "Plans that follow the change", §8): the live copies of a few named websites or
 * projects, each found through the listing's `search` instead of reading the whole account, and never at a
 * higher cost than that whole read. The answer is data: the items, or "read in full instead" and why.
 */
import type { LookupFallback } from "../model/config-change.ts";
import { type LiveProject, projectKey } from "../model/project.ts";
import { type LiveWebsite, normalizeDomain } from "../model/website.ts";
import { encodeListProjects, encodeListWebsites } from "./encode.ts";
import { readAll } from "./paginate.ts";
import type { Client, ListProjectsParams, ListWebsitesParams, Page } from "./types.ts";

const PER_PAGE = 100;
/** The cheapest request that tells the account's size: `meta.total` of one unfiltered page (DESIGN §3, scoped read). */
const PROBE_PER_PAGE = 10;

export type Lookup<T> =
  | {
      read: "scoped";
      /** Every live copy of each name: a second copy of a domain is for `plan` to tell apart, as after a full read. */
      items: T[];
      /** Requests sent (the size probe included; retries not). */
      requests: number;
      /** What a full read would cost, in requests; absent when nothing was looked up. */
      fullCost?: number;
    }
  | { read: "full-instead"; reason: LookupFallback; requests: number; fullCost?: number };

/**
 * The live websites whose normalized domain is one of `domains`. One unfiltered `per_page=10` request gives
 * `meta.total`, so a full read's cost, ceil(total / 100); the lookups (one search per domain, and its further
 * pages when the domain is a substring of many others) run only while the probe and they together cost no
 * more than that, else the answer is `full-instead` (decided after the first page of each search, before any
 * further page is read).
 */
export function lookUpWebsites(client: Client, domains: readonly string[]): Promise<Lookup<LiveWebsite>> {
  const api = client.websites;
  const query = (search: string): ListWebsitesParams => ({ search, per_page: PER_PAGE, sort_by: "id", sort: "asc" });
  return lookUp({
    names: domains.map(normalizeDomain),
    nameOf: (site) => normalizeDomain(site.domain),
    key: (site) => site.id,
    probe: () => api.list({ per_page: PROBE_PER_PAGE, sort_by: "id", sort: "asc" }),
    search: (search, page) => api.list({ ...query(search), page }),
    url: (search) => `${client.target.websites}/api/v1/websites?${encodeListWebsites(query(search))}`,
    noun: "websites",
  });
}

/** The live projects named `names` (compared without case, as `plan` does): `lookUpWebsites` over `/projects`. */
export function lookUpProjects(client: Client, names: readonly string[]): Promise<Lookup<LiveProject>> {
  const api = client.projects;
  const query = (search: string): ListProjectsParams => ({ search, per_page: PER_PAGE, sort_by: "project", sort: "asc" });
  return lookUp({
    names: names.map(projectKey),
    nameOf: (project) => projectKey(project.project),
    key: (project) => project.project,
    probe: () => api.list({ per_page: PROBE_PER_PAGE, sort_by: "project", sort: "asc" }),
    search: (search, page) => api.list({ ...query(search), page }),
    url: (search) => `${client.target.projects}/api/v1/projects?${encodeListProjects(query(search))}`,
    noun: "projects",
  });
}

interface Searchable<T> {
  names: string[];
  /** The name an item is matched by, normalized as `names` are. */
  nameOf(item: T): string;
  key(item: T): string | number;
  probe(): Promise<Page<T>>;
  search(term: string, page: number): Promise<Page<T>>;
  /** The search's listing URL without `page`, for an integrity error. */
  url(term: string): string;
  noun: string;
}

async function lookUp<T>(source: Searchable<T>): Promise<Lookup<T>> {
  const names = [...new Set(source.names)];
  if (names.length === 0) return { read: "scoped", items: [], requests: 0 };
  const terms = names.map(searchTerm);
  if (terms.some((term) => term === "")) return { read: "full-instead", reason: "unsearchable", requests: 0 };
  let requests = 1;
  const total = (await source.probe()).meta?.total;
  if (total === undefined) return { read: "full-instead", reason: "no-total", requests };
  const fullCost = Math.max(1, Math.ceil(total / PER_PAGE));
  // The probe and the lookups together never cost more than the full read they replace.
  const budget = fullCost - requests;
  const over = () => ({ read: "full-instead", reason: "over-budget", requests, fullCost }) as const;
  if (names.length > budget) return over();

  const counted = (term: string) => (page: number) => {
    requests++;
    return source.search(term, page);
  };
  const firsts = await Promise.all(terms.map((term) => counted(term)(1)));
  if (firsts.some((page) => page.meta === undefined && page.links?.next))
    return { read: "full-instead", reason: "no-total", requests, fullCost };
  const further = firsts.reduce((sum, page) => sum + Math.max(0, (page.meta?.last_page ?? 1) - 1), 0);
  if (names.length + further > budget) return over();

  const matches = await Promise.all(
    terms.map((term, i) =>
      // The same integrity checks and bounds as a full read (DESIGN §5, §12), from the page already read.
      readAll({ page: counted(term), key: source.key, perPage: PER_PAGE, url: source.url(term), noun: source.noun, first: firsts[i]! }),
    ),
  );
  const wanted = new Set(names);
  const seen = new Set<string | number>();
  const items = matches.flat().filter((item) => {
    const key = source.key(item);
    if (seen.has(key) || !wanted.has(source.nameOf(item))) return false;
    seen.add(key);
    return true;
  });
  return { read: "scoped", items, requests, fullCost };
}

/**
 * What to search for: the longest run of the name without `%`, `_` or `\`. The API puts the value into
 * `LIKE '%…%'` unescaped (API-NOTES §2.2), where those three are wildcards or an escape; a run without them
 * matches the name whatever the server's escape settings, and the answer is filtered to the exact name.
 */
export function searchTerm(name: string): string {
  return name.split(/[%_\\]/).reduce((longest, part) => (part.length > longest.length ? part : longest), "");
}
