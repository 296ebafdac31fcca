import { isIP } from "node:net";
import type { RuleContext } from "./context.ts";

/**
 * `websites_url`/`projects_url` must be http(s) addresses; plain http only to a loopback host, so the key
 * never crosses a network in clear text (DESIGN §2). The client checks again for flags and env.
 */
export function apiUrls(ctx: RuleContext): void {
  for (const key of ["websites_url", "projects_url"] as const) {
    const value = ctx.data[key];
    if (typeof value !== "string") continue;
    const problem = describeUrlProblem(value);
    if (problem) ctx.error("url.invalid", [key], problem);
  }
}

/** Why a base address is unusable, or `undefined` when it is fine. Never echoes credentials. */
export function describeUrlProblem(value: string): string | undefined {
  const url = URL.parse(value.trim());
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.hostname === "") {
    return "must be an http(s) address, like https://analytics.example.com";
  }
  if (url.username !== "" || url.password !== "") {
    return "must not hold a user name or password; the API key comes from SITESYNC_API_KEY";
  }
  if (url.search !== "" || url.hash !== "") {
    return "must be a base address without ?query or #fragment, like https://analytics.example.com";
  }
  if (url.protocol === "http:" && !isLoopback(url.hostname)) {
    return `plain http:// would send the API key unencrypted to ${url.hostname}; use https:// (http:// is allowed only for localhost, 127.0.0.1 and [::1])`;
  }
  return undefined;
}

function isLoopback(hostname: string): boolean {
  if (hostname === "localhost" || hostname === "[::1]") return true;
  return isIP(hostname) === 4 && hostname.startsWith("127.");
}
