import { AccountUrlError, type UrlSetting, type UrlSource } from "../errors.ts";
import { checkBaseUrl } from "../model/base-url.ts";

/**
 * The API base from `source`, checked and normalized by the one base-URL check (model/base-url.ts); a
 * problem is an AccountUrlError naming where the address came from (render/ words it).
 */
export function resolveBaseUrl(input: string, setting: UrlSetting, source: UrlSource = "setting"): string {
  const check = checkBaseUrl(input);
  if (check.ok) return check.base;
  throw new AccountUrlError(setting, { code: "invalid", source, input, problem: check.problem });
}
