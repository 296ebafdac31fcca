/**
 * Requests encoded the way the real server parses them: form bodies and query strings (API-NOTES §1),
 * flags as `1`/`0` because PHP reads the string "false" as true (API-NOTES §2.5), lists one entry per line
 * (API-NOTES §2.1), and an empty value to clear a field (Laravel's ConvertEmptyStringsToNull makes it null).
 */
import { FIELD_NAMES, WEBSITE_FIELDS } from "../model/website-fields.ts";
import type { ListProjectsParams, ListWebsitesParams, WebsiteCreateInput, WebsiteUpdateInput } from "./types.ts";

type FormValue = string | number | boolean | readonly string[] | null | undefined;

function flag(value: boolean | 0 | 1): string {
  return value === true || value === 1 ? "1" : "0";
}

function encodeValue(value: Exclude<FormValue, undefined>): string {
  if (value === null) return "";
  if (typeof value === "boolean") return flag(value);
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return value;
  return value.join("\n");
}

/** Fields in the given order; `undefined` leaves a field out (unchanged on PUT). */
function form(fields: ReadonlyArray<readonly [string, FormValue]>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of fields) if (value !== undefined) params.append(name, encodeValue(value));
  return params;
}

/** The website fields of a request, under their API names, in `WEBSITE_FIELDS` order. */
function websiteFields(input: WebsiteCreateInput | WebsiteUpdateInput): [string, FormValue][] {
  return FIELD_NAMES.map((field) => [WEBSITE_FIELDS[field].api, (input as WebsiteUpdateInput)[field]]);
}

/** The body of `POST /api/v1/websites` (API-NOTES §2.4). POST takes no favorite: only PUT sets it (DESIGN §4). */
export function encodeCreate(input: WebsiteCreateInput): URLSearchParams {
  const fields = websiteFields(input).filter(([name]) => name !== WEBSITE_FIELDS.favorite.api);
  return form([["domain", input.domain], ...fields]);
}

/** The body of `PUT /api/v1/websites/{id}` (API-NOTES §2.5). `password: null` clears the password. */
export function encodeUpdate(input: WebsiteUpdateInput): URLSearchParams {
  return form(websiteFields(input));
}

/** The query of `GET /api/v1/websites` (API-NOTES §2.2); `favorite` is only honoured when numeric. */
export function encodeListWebsites(params: ListWebsitesParams): URLSearchParams {
  return form([
    ["search", params.search],
    ["search_by", params.search_by],
    ["favorite", params.favorite === undefined ? undefined : flag(params.favorite)],
    ["sort_by", params.sort_by],
    ["sort", params.sort],
    ["per_page", params.per_page],
    ["page", params.page],
  ]);
}

/** The query of `GET /api/v1/projects` (API-NOTES §5). */
export function encodeListProjects(params: ListProjectsParams): URLSearchParams {
  return form([
    ["search", params.search],
    ["search_by", params.search_by],
    ["sort_by", params.sort_by],
    ["sort", params.sort],
    ["per_page", params.per_page],
    ["page", params.page],
  ]);
}
