import { UsageError } from "../errors.ts";
import { type BaseUrlProblem, checkBaseUrl } from "../model/base-url.ts";

/**
 * The API base as given by `--websites-url`/`--projects-url` (or the environment or the config), checked
 * and normalized by the one base-URL check (model/base-url.ts); a problem is a UsageError naming the flag.
 */
export function resolveBaseUrl(input: string, flag: string): string {
  const check = checkBaseUrl(input);
  if (check.ok) return check.base;
  throw new UsageError(`${flag}: ${flagMessage(check.problem, input)}`);
}

function flagMessage(problem: BaseUrlProblem, input: string): string {
  switch (problem.code) {
    case "not-url":
      return `"${input}" is not a URL (expected e.g. https://analytics.example.com)`;
    case "scheme":
      return `only https:// URLs are supported, got ${problem.protocol}//`;
    case "plain-http":
      return `refusing plain http:// to ${problem.hostname}: the API key would cross the network in clear text; use https://`;
    case "credentials":
    case "query":
      return "give the base address only, without credentials, query or fragment";
  }
}
