import { isIP } from "node:net";
import { type ConfigPath, isRecord } from "../locate.ts";
import type { RuleContext } from "./rule-context.ts";

/**
 * The API stores any text (API-NOTES §2.1), and the tracker then silently never matches a bad entry; so each
 * entry must be an IPv4/IPv6 address or a CIDR range, as Symfony's IpUtils::checkIp reads them.
 */
export function invalidExcludeIps(ctx: RuleContext): void {
  if (isRecord(ctx.data.defaults)) checkList(ctx, ctx.data.defaults.exclude_ips, ["defaults"]);
  for (const entry of ctx.config.websites) checkList(ctx, entry.raw.exclude_ips, entry.path);
}

/** One `exclude_ips` list under `holder`; a path is built only for an entry that is wrong. */
function checkList(ctx: RuleContext, list: unknown, holder: ConfigPath): void {
  if (!Array.isArray(list)) return;
  for (let index = 0; index < list.length; index++) {
    const problem = entryProblem(list[index]);
    if (problem) ctx.error("exclude-ips.invalid", [...holder, "exclude_ips", index], problem);
  }
}

/**
 * Why one `exclude_ips` entry, trimmed, is not an address or CIDR range: `undefined` for one that is, and for a
 * blank one. `name` says how the entry is written in the message (export shortens a line of 100,000 characters).
 */
export function entryProblem(item: unknown, name: (entry: string) => string = (entry) => entry): string | undefined {
  const entry = typeof item === "string" ? item.trim() : "";
  return entry === "" ? undefined : describeIpProblem(entry, name(entry));
}

/** Why an entry is not an address or CIDR range, or `undefined` when it is one; `shown` is how it is named. */
export function describeIpProblem(entry: string, shown = entry): string | undefined {
  const slash = entry.indexOf("/");
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0 || address.includes("%")) {
    return `"${shown}" is not an IP address or CIDR range (like 203.0.113.7, 198.51.100.0/24 or 2001:db8::/32)`;
  }
  if (slash === -1) return undefined;
  const prefix = entry.slice(slash + 1);
  const max = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max) {
    return `"${shown}" has an invalid prefix length: an IPv${family} range ends in /0 to /${max}`;
  }
  return undefined;
}
