/**
 * The root's `accounts:` (DESIGN §2 "Many files, many accounts"): which account each file's websites and
 * projects belong to, and each account's addresses, key variables and policy over the root's. Without
 * `accounts` the config is one account, exactly as before.
 */
import type { Diagnostic } from "../errors.ts";
import type { DesiredProject } from "../model/project.ts";
import type { DesiredWebsite } from "../model/website.ts";
import { didYouMean } from "./did-you-mean.ts";
import type { ConfigPath, Locator } from "./locate.ts";
import { isRecord } from "./locate.ts";
import { type Normalized, readPolicy } from "./normalize.ts";
import { describeUrlProblem } from "./rules/api-urls.ts";
import type { Config, ConfigAccount } from "./types.ts";

/** The variables that hold an account's keys when its entry names none, and a config's without `accounts:`. */
export const DEFAULT_KEY_ENVS = { apiKeyEnv: "SITESYNC_API_KEY", projectsApiKeyEnv: "SITESYNC_PROJECTS_API_KEY" } as const;

/** What the accounts need of each checked file. */
export interface AccountPart {
  file: string;
  data: Record<string, unknown>;
  normalized: Normalized;
  locate: Locator;
}

type AccountError = (part: AccountPart, path: ConfigPath, code: string, message: string) => void;

/** The account each file belongs to (`undefined`: no accounts, or a file whose account is in error). */
export function accountOf(parts: readonly AccountPart[]): { of: (string | undefined)[]; diagnostics: Diagnostic[] } {
  const [root] = parts;
  const diagnostics: Diagnostic[] = [];
  const accounts = root && isRecord(root.data.accounts) ? root.data.accounts : undefined;
  const names = accounts ? Object.keys(accounts) : [];
  const error: AccountError = (part, path, code, message) =>
    diagnostics.push({ file: part.file, ...part.locate.value(path), code, path: path.join("."), message, severity: "error" });
  const of = parts.map((part, index) => (index === 0 ? rootAccount(part, names, error) : includedAccount(part, names, error)));
  return { of, diagnostics };
}

/** The root's account: the only one, else none (with several, its websites would belong to none). */
function rootAccount(part: AccountPart, names: readonly string[], error: AccountError): string | undefined {
  if (names.length <= 1) return names[0];
  if (part.data.websites !== undefined || part.data.projects !== undefined) {
    const message = `with more than one account, list websites in included files that say account: ${names.join(" | ")}`;
    error(part, ["websites"], "account.ambiguous", message);
  }
  return undefined;
}

/** An included file's account: its `account:`, which must name one of the root's; the only one without it. */
function includedAccount(part: AccountPart, names: readonly string[], error: AccountError): string | undefined {
  const named = part.data.account;
  if (typeof named !== "string") {
    if (names.length <= 1) return names[0];
    error(part, [], "account.missing", `this file needs account: one of ${names.join(", ")} (the root file has several accounts)`);
    return undefined;
  }
  if (names.length === 0) {
    error(part, ["account"], "account.unknown", `the root file has no accounts:, so there is no account "${named}"; remove account:`);
    return undefined;
  }
  if (names.includes(named)) return named;
  const guess = didYouMean(named, names);
  const message = `no account "${named}" in the root file${guess ? `; did you mean "${guess}"?` : `: one of ${names.join(", ")}`}`;
  error(part, ["account"], "account.unknown", message);
  return undefined;
}

/** The accounts with the websites and projects of their files; `undefined` without `accounts`. */
export function readAccounts(
  parts: readonly AccountPart[],
  of: readonly (string | undefined)[],
): { accounts?: ConfigAccount[]; diagnostics: Diagnostic[] } {
  const root = parts[0];
  const diagnostics: Diagnostic[] = [];
  if (!root || !isRecord(root.data.accounts)) return { diagnostics };
  const rootPolicy = isRecord(root.data.policy) ? root.data.policy : {};
  const accounts = Object.entries(root.data.accounts).map(([name, raw]): ConfigAccount => {
    const settings = isRecord(raw) ? raw : {};
    const own = (key: string) => (typeof settings[key] === "string" ? (settings[key] as string) : undefined);
    diagnostics.push(...urlProblems(root, name, own));
    const mine = parts.filter((_, index) => of[index] === name);
    const websitesUrl = own("websites_url") ?? root.normalized.websitesUrl;
    const projectsUrl = own("projects_url") ?? root.normalized.projectsUrl;
    return {
      name,
      ...(websitesUrl === undefined ? {} : { websitesUrl }),
      ...(projectsUrl === undefined ? {} : { projectsUrl }),
      apiKeyEnv: own("api_key_env") ?? DEFAULT_KEY_ENVS.apiKeyEnv,
      projectsApiKeyEnv: own("projects_api_key_env") ?? DEFAULT_KEY_ENVS.projectsApiKeyEnv,
      policy: readPolicy({ ...rootPolicy, ...(isRecord(settings.policy) ? settings.policy : {}) }),
      ...listsOf(mine),
      files: mine.map((part) => part.file),
    };
  });
  return { accounts, diagnostics };
}

/** An account's own addresses that are not valid URLs, each at its place in the root file. */
function urlProblems(root: AccountPart, name: string, own: (key: string) => string | undefined): Diagnostic[] {
  return ["websites_url", "projects_url"].flatMap((key) => {
    const value = own(key);
    const problem = value === undefined ? undefined : describeUrlProblem(value);
    if (!problem) return [];
    const path = ["accounts", name, key];
    return [
      {
        file: root.file,
        ...root.locate.value(path),
        code: "url.invalid",
        path: path.join("."),
        message: problem,
        severity: "error" as const,
      },
    ];
  });
}

/** The websites and projects of an account's files; projects only when some file manages them. */
function listsOf(mine: readonly AccountPart[]): { websites: DesiredWebsite[]; projects?: DesiredProject[] } {
  const websites = mine.flatMap((part) => part.normalized.websites.map((entry) => entry.site));
  const managesProjects = mine.some((part) => part.normalized.projects !== undefined);
  const projects = mine.flatMap((part) => (part.normalized.projects ?? []).map((entry) => entry.project));
  return { websites, ...(managesProjects ? { projects } : {}) };
}

/**
 * The config of one account, as its run plans it: its websites, projects, policy and addresses, with the
 * root's defaults, files and digest. The change of a fleet compares this slice of the base with this slice
 * now, so both ends are cut the same way.
 */
export function accountConfig(config: Config, account: ConfigAccount): Config {
  const { accounts: _all, websitesUrl: _w, projectsUrl: _p, projects: _projects, ...shared } = config;
  const { name, apiKeyEnv, projectsApiKeyEnv } = account;
  return {
    ...shared,
    account: { name, apiKeyEnv, projectsApiKeyEnv },
    websites: account.websites,
    policy: account.policy,
    ...(account.projects ? { projects: account.projects } : {}),
    ...(account.websitesUrl ? { websitesUrl: account.websitesUrl } : {}),
    ...(account.projectsUrl ? { projectsUrl: account.projectsUrl } : {}),
  };
}
