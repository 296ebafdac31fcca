import { AccountUrlError, type AccountUrlProblem, type UrlSetting, type UrlSource } from "../errors.ts";
import { accountUrlMessage } from "../model/account-url-words.ts";
import { checkBaseUrl } from "../model/base-url.ts";

/**
 * The API base from `source`, checked and normalized by the one base-URL check (model/base-url.ts); a
 * problem is an AccountUrlError naming where the address came from.
 */
export function resolveBaseUrl(input: string, setting: UrlSetting, source: UrlSource = "setting"): string {
  const check = checkBaseUrl(input);
  if (check.ok) return check.base;
  throw accountUrlError(setting, { code: "invalid", source, input, problem: check.problem });
}

/**
 * The error for `problem`, worded for the CLI (the Action re-words it with `accountUrlMessage`); `account`
 * names the account of a fleet whose address it is.
 */
export function accountUrlError(setting: UrlSetting, problem: AccountUrlProblem, account?: string): AccountUrlError {
  return new AccountUrlError(setting, problem, accountUrlMessage(setting, problem, "cli", account), account);
}
