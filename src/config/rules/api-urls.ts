import { type BaseUrlProblem, checkBaseUrl } from "../../model/base-url.ts";
import type { RuleContext } from "./rule-context.ts";

/**
 * `websites_url`/`projects_url` must be http(s) addresses; plain http only to a loopback host, so the key
 * never crosses a network in clear text (DESIGN §2). The client runs the same check on flags and env.
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
  const check = checkBaseUrl(value);
  return check.ok ? undefined : configMessage(check.problem);
}

function configMessage(problem: BaseUrlProblem): string {
  switch (problem.code) {
    case "not-url":
    case "scheme":
      return "must be an http(s) address, like https://analytics.example.com";
    case "credentials":
      return "must not hold a user name or password; the API key comes from SITESYNC_API_KEY";
    case "query":
      return "must be a base address without ?query or #fragment, like https://analytics.example.com";
    case "plain-http":
      return `plain http:// would send the API key unencrypted to ${problem.hostname}; use https:// (http:// is allowed only for localhost, 127.0.0.1 and [::1])`;
  }
}
