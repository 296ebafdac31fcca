import type { LiveWebsite } from "../../src/model/website.ts";

/** A website as the client returns it (canonical types), with the API's defaults unless overridden. */
export function liveWebsite(id: number, domain: string, over: Partial<LiveWebsite> = {}): LiveWebsite {
  return {
    id,
    domain,
    privacy: 0,
    email: 0,
    password: false,
    exclude_bots: 1,
    exclude_ips: [],
    favorite: false,
    favorited_at: null,
    created_at: "2025-01-02T03:04:05.000000Z",
    updated_at: "2025-01-02T03:04:05.000000Z",
    ...over,
  };
}
