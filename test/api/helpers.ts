/** Shared fixtures for the client tests: a key, website objects as the API sends them, and paginated bodies. */
import { inspect } from "node:util";
import { createClient } from "../../src/api/client.ts";
import type { Client, ClientOptions, RequestLogEntry } from "../../src/api/types.ts";

/** 64 alphanumeric characters, like `Str::random(64)` (API-NOTES §1). */
export const KEY = "Zq8sEcReT4kEy0000000000000000000000000000000000000000000000000Kz";
export const BASE = "https://api.test";
export const WEBSITES = `${BASE}/api/v1/websites`;
export const PROJECTS = `${BASE}/api/v1/projects`;

export { apiWebsite } from "../helpers/api-website.ts";

/** A LengthAwarePaginator body (API-NOTES §3) over `all`, for page `page` of `perPage`. */
export function pageBody(url: string, all: unknown[], page: number, perPage: number, extra: { noMeta?: boolean } = {}) {
  const lastPage = Math.max(1, Math.ceil(all.length / perPage));
  const data = all.slice((page - 1) * perPage, page * perPage);
  const link = (n: number) => `${url}?per_page=${perPage}&page=${n}`;
  const links = {
    first: link(1),
    last: link(lastPage),
    prev: page > 1 ? link(page - 1) : null,
    next: page < lastPage ? link(page + 1) : null,
  };
  if (extra.noMeta) return { data, links, status: 200 };
  const from = data.length ? (page - 1) * perPage + 1 : null;
  const meta = {
    current_page: page,
    from,
    last_page: lastPage,
    path: url,
    per_page: perPage,
    to: from === null ? null : from + data.length - 1,
    total: all.length,
  };
  return { data, links, meta, status: 200 };
}

/** A client with fast retries and a log, for msw-backed tests. */
export function testClient(options: Partial<ClientOptions> = {}): { client: Client; log: RequestLogEntry[] } {
  const log: RequestLogEntry[] = [];
  const client = createClient({
    websitesUrl: BASE,
    projectsUrl: BASE,
    apiKey: KEY,
    retryBaseMs: 5,
    timeoutMs: 2_000,
    onRequest: (entry) => log.push(entry),
    ...options,
  });
  return { client, log };
}

/** What a promise rejected with (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected the call to fail, but it succeeded");
}

/** Everything a user or a log could ever see of a value: its JSON and its full inspection (causes included). */
export function serialized(value: unknown): string {
  let json = "";
  try {
    json = JSON.stringify(value, (_key, v: unknown) => (v instanceof Error ? { ...v, message: v.message, stack: v.stack } : v));
  } catch {
    json = "";
  }
  return `${json}\n${inspect(value, { depth: Infinity, showHidden: true })}`;
}
