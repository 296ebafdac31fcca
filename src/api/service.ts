import { AccountUrlError, ApiError, type UrlSetting } from "../errors.ts";
import type { ApiResponse, Http } from "./http.ts";
import { redactUrl } from "./redact.ts";
import type { Method } from "./send.ts";

/** One of the two APIs (websites, projects): its base URL, its key, and the shared request loop. */
export interface Service {
  /**
   * Sends one request to `{base}/api/v1/{path}`; a UsageError when this API's URL was not given. Variable
   * parts of `path` must come through `pathSegment`.
   */
  request(method: Method, path: string, options?: { query?: URLSearchParams; form?: URLSearchParams }): Promise<ApiResponse>;
  /** `{base}/api/v1/{path}`, for messages. */
  url(path: string, query?: URLSearchParams): string;
}

/**
 * A value (a project name) as one path segment: `/`, `?`, `#`, `%` and whitespace percent-encoded, and a
 * dot segment as `%2E` (DESIGN §12: a project named `..` would be deleted as `DELETE /api/v1/projects/..`). URL
 * parsers still resolve `%2E%2E`, so such a name is then refused by the path check in `request`.
 */
export function pathSegment(value: string): string {
  const encoded = encodeURIComponent(value);
  return encoded === "." || encoded === ".." ? encoded.replaceAll(".", "%2E") : encoded;
}

/**
 * A service over `base` (already normalized by `resolveBaseUrl`), or one that refuses every call naming the
 * missing address: each URL is only required when its API is used.
 */
export function createService(base: string | undefined, setting: UrlSetting, apiKey: string, http: Http): Service {
  const url = (path: string, query?: URLSearchParams): string => {
    if (base === undefined) throw new AccountUrlError(setting, { code: "missing" });
    const search = query && query.size > 0 ? `?${query.toString()}` : "";
    return `${base}/api/v1/${path}${search}`;
  };
  // The base's own path, read once: a plan of 100,000 websites sends 1,000 requests.
  const basePath = base === undefined ? "" : new URL(base).pathname.replace(/\/$/, "");
  return {
    url,
    async request(method, path, options = {}) {
      const target = url(path, options.query);
      checkPath(method, target, `${basePath}/api/v1/${path}`, path);
      return http({ method, url: target, apiKey, form: options.form });
    },
  };
}

/** The client never sends a request whose resolved path is not the endpoint it meant (DESIGN §12). */
function checkPath(method: Method, target: string, expected: string, path: string): void {
  const actual = new URL(target).pathname;
  if (actual === expected && !path.split("/").includes("")) return;
  const why = actual === expected ? "it has an empty segment (a blank name?)" : `it resolves to ${actual}`;
  throw new ApiError({
    kind: "bound",
    method,
    url: redactUrl(target),
    message: `not sent: the path must be exactly ${expected}, but ${why}; a name made of dots or slashes cannot be addressed`,
  });
}
