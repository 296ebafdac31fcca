import { ApiError, UsageError } from "../errors.ts";
import { type LiveWebsite, normalizeDomain } from "../model/website.ts";
import { decodeDeleted, decodeItem, decodePage, decodeResponse, decodeWebsite } from "./decode.ts";
import { encodeCreate, encodeListWebsites, encodeUpdate } from "./encode.ts";
import { readAll } from "./paginate.ts";
import type { Service } from "./service.ts";
import type { ListWebsitesParams, Page, ReadProgress, WebsitesApi } from "./types.ts";

const PER_PAGE = 100;
/** The lookup after an ambiguous POST reads at most this many pages of search results (DESIGN §12). */
const MAX_SEARCH_PAGES = 5;
const decodeWebsitePage = decodePage(decodeWebsite);
const decodeOneWebsite = decodeItem(decodeWebsite);

/** `id` goes into the path, and MySQL reads `5abc` as 5 (API-NOTES §2.3): only a plain positive integer may. */
function idPath(id: number): string {
  if (!Number.isSafeInteger(id) || id < 1) throw new UsageError(`invalid website id ${String(id)}`);
  return `websites/${id}`;
}

/** The phpAnalytics Websites API (API-NOTES §2), every answer in canonical types. */
export function createWebsitesApi(service: Service, onProgress?: (event: ReadProgress) => void): WebsitesApi {
  const list = async (params: ListWebsitesParams = {}): Promise<Page<LiveWebsite>> =>
    decodeResponse(await service.request("GET", "websites", { query: encodeListWebsites(params) }), decodeWebsitePage);

  return {
    list,
    show: async (id) => decodeResponse(await service.request("GET", idPath(id)), decodeOneWebsite),
    create: async (input) => decodeResponse(await service.request("POST", "websites", { form: encodeCreate(input) }), decodeOneWebsite),
    update: async (id, input) => decodeResponse(await service.request("PUT", idPath(id), { form: encodeUpdate(input) }), decodeOneWebsite),
    delete: async (id) => decodeResponse(await service.request("DELETE", idPath(id)), decodeDeleted("website")),
    readAll: async () => {
      const base = { per_page: PER_PAGE, sort_by: "id", sort: "asc" } as const;
      return readAll({
        page: (page) => list({ ...base, page }),
        key: (website) => website.id,
        perPage: PER_PAGE,
        url: service.url("websites", encodeListWebsites(base)),
        noun: "websites",
        onProgress,
      });
    },
    find: (domain) => {
      const normalized = normalizeDomain(domain);
      const query = encodeListWebsites({ search: normalized, per_page: PER_PAGE, sort_by: "id", sort: "desc" });
      return find(list, normalized, service.url("websites", query));
    },
  };
}

/**
 * `search` is a LIKE `%domain%` (API-NOTES §2.2), so longer names match too: page on until the exact one
 * turns up or the pages run out, but never past `MAX_SEARCH_PAGES` (DESIGN §12: a hostile answer could be paged
 * through about 150,000 times). Newest first: the site an ambiguous POST created is on page 1.
 */
async function find(list: WebsitesApi["list"], domain: string, url: string): Promise<LiveWebsite | undefined> {
  for (let page = 1; page <= MAX_SEARCH_PAGES; page++) {
    const result = await list({ search: domain, per_page: PER_PAGE, sort_by: "id", sort: "desc", page });
    const hit = result.data.find((website) => website.domain === domain);
    if (hit) return hit;
    const more = result.meta ? page < result.meta.last_page : Boolean(result.links?.next);
    if (!more || result.data.length === 0) return undefined;
  }
  throw new ApiError({
    kind: "bound",
    method: "GET",
    url,
    message:
      `the search for ${domain} runs past ${MAX_SEARCH_PAGES} pages (${MAX_SEARCH_PAGES * PER_PAGE} matches) without it: ` +
      "cannot tell whether the POST created it; check the account, then plan again",
  });
}
