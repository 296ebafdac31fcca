import { UsageError } from "../errors.ts";
import type { ApiResponse, Http } from "./http.ts";
import type { Method } from "./send.ts";

/** One of the two APIs (websites, projects): its base URL, its key, and the shared request loop. */
export interface Service {
  /** Sends one request to `{base}/api/v1/{path}`; a UsageError when this API's URL was not given. */
  request(method: Method, path: string, options?: { query?: URLSearchParams; form?: URLSearchParams }): Promise<ApiResponse>;
  /** `{base}/api/v1/{path}`, for messages. */
  url(path: string, query?: URLSearchParams): string;
}

/**
 * A service over `base` (already normalized by `resolveBaseUrl`), or one that refuses every call naming the
 * missing flag: each URL is only required when its API is used.
 */
export function createService(base: string | undefined, flag: string, apiKey: string, http: Http): Service {
  const url = (path: string, query?: URLSearchParams): string => {
    if (base === undefined) {
      const [env, key] = flag === "--projects-url" ? ["SITESYNC_PROJECTS_URL", "projects_url"] : ["SITESYNC_WEBSITES_URL", "websites_url"];
      throw new UsageError(`this command needs the API address: pass ${flag} <url>, set ${env}, or set ${key} in the config`);
    }
    const search = query && query.size > 0 ? `?${query.toString()}` : "";
    return `${base}/api/v1/${path}${search}`;
  };
  return {
    url,
    async request(method, path, options = {}) {
      const target = url(path, options.query);
      return http({ method, url: target, apiKey, form: options.form });
    },
  };
}
