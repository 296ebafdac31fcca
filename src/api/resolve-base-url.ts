import { AccountUrlError, type AccountUrlProblem, type UrlSetting, type UrlSource } from "../errors.ts";
import { type BaseUrlProblem, checkBaseUrl } from "../model/base-url.ts";

/** Who reads an error about the account's address: a CLI user (flags) or a workflow author (Action inputs). */
export type UrlSurface = "cli" | "action";

/**
 * The API base from `source`, checked and normalized by the one base-URL check (model/base-url.ts); a
 * problem is an AccountUrlError naming where the address came from.
 */
export function resolveBaseUrl(input: string, setting: UrlSetting, source: UrlSource = "setting"): string {
  const check = checkBaseUrl(input);
  if (check.ok) return check.base;
  throw accountUrlError(setting, { code: "invalid", source, input, problem: check.problem });
}

/** The error for `problem`, worded for the CLI (the Action re-words it with `accountUrlMessage`). */
export function accountUrlError(setting: UrlSetting, problem: AccountUrlProblem): AccountUrlError {
  return new AccountUrlError(setting, problem, accountUrlMessage(setting, problem, "cli"));
}

/** The words of an account-address problem, naming the flag (CLI) or the input (Action) that sets it. */
export function accountUrlMessage(setting: UrlSetting, problem: AccountUrlProblem, surface: UrlSurface): string {
  const names = namesOf(setting, surface);
  switch (problem.code) {
    case "missing":
      return surface === "cli"
        ? `this command needs the API address: pass ${names.setting} <url>, set ${names.env}, or set ${names.key} in the config`
        : `this command needs the API address: set the ${names.setting} input (e.g. \`${names.setting}: \${{ vars.${names.env} }}\`) or ${names.key} in the config`;
    case "invalid": {
      const where = { setting: surface === "cli" ? names.setting : `the ${names.setting} input`, env: names.env, file: names.key }[
        problem.source
      ];
      return `${where}: ${problemWords(problem.problem, problem.input)}`;
    }
    case "env-differs": {
      const choose = surface === "cli" ? `pass ${names.setting} <url>` : `set the ${names.setting} input`;
      return (
        `${names.env} (${problem.env}) names another account than ${names.key} in ${problem.configFile} (${problem.file}): ` +
        `unset ${names.env} to use the file's, or ${choose} to choose the account on purpose`
      );
    }
  }
}

function namesOf(setting: UrlSetting, surface: UrlSurface): { setting: string; env: string; key: string } {
  const input = setting === "projects" ? "projects-url" : "websites-url";
  return {
    setting: surface === "cli" ? `--${input}` : input,
    env: setting === "projects" ? "SITESYNC_PROJECTS_URL" : "SITESYNC_WEBSITES_URL",
    key: setting === "projects" ? "projects_url" : "websites_url",
  };
}

function problemWords(problem: BaseUrlProblem, input: string): string {
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
