import { isApiDomain } from "../../model/website.ts";
import type { WebsiteEntry } from "../normalize.ts";
import type { RuleContext } from "./rule-context.ts";

/**
 * Two entries for one stored domain would fight over it; both lines are named (DESIGN §2). One set operation
 * an entry finds them; which entry came first is looked up only once there is a duplicate.
 */
export function duplicateDomains(ctx: RuleContext): void {
  const seen = new Set<string>();
  let firsts: Map<string, WebsiteEntry> | undefined;
  for (const entry of ctx.config.websites) {
    const size = seen.size;
    seen.add(entry.site.domain);
    if (seen.size > size) continue;
    firsts ??= firstEntries(ctx.config.websites);
    const earlier = firsts.get(entry.site.domain) as WebsiteEntry;
    const path = [...entry.path, "domain"];
    const first = { line: ctx.locate.value([...earlier.path, "domain"]).line, written: earlier.written };
    const stored = entry.site.domain;
    const message =
      first.written === entry.written
        ? `duplicate website "${stored}": already listed at line ${first.line}; keep one entry`
        : `duplicate website: "${entry.written}" and "${first.written}" (line ${first.line}) are both stored as "${stored}"; keep one entry`;
    ctx.error("domain.duplicate", path, message);
  }
}

/** The first entry of each domain. */
function firstEntries(entries: readonly WebsiteEntry[]): Map<string, WebsiteEntry> {
  const firsts = new Map<string, WebsiteEntry>();
  for (const entry of entries) if (!firsts.has(entry.site.domain)) firsts.set(entry.site.domain, entry);
  return firsts;
}

/** Projects are grouped by name in a case-insensitive column (API-NOTES §5), so case does not make two. */
export function duplicateProjects(ctx: RuleContext): void {
  const seen = new Map<string, number>();
  for (const entry of ctx.config.projects ?? []) {
    const path = [...entry.path, "project"];
    const name = entry.project.project.toLowerCase();
    const line = seen.get(name);
    if (line === undefined) seen.set(name, ctx.locate.value(path).line);
    else
      ctx.error("project.duplicate", path, `duplicate project "${entry.project.project}": already listed at line ${line}; keep one entry`);
  }
}

/** A create the API would refuse with "Invalid domain name." (API-NOTES §2.4), caught before any request. */
export function domainRejectedByApi(ctx: RuleContext): void {
  for (const entry of ctx.config.websites) {
    if (entry.site.state === "absent" || isApiDomain(entry.site.domain)) continue;
    const domain = entry.site.domain;
    ctx.error("domain.invalid", [...entry.path, "domain"], `the API rejects "${domain}" ("Invalid domain name."): ${domainHint(domain)}`);
  }
}

function domainHint(domain: string): string {
  if (domain.includes("/")) return "a website is a host name alone, without a path";
  if (domain.includes(":")) return "a website is a host name alone, without a port";
  if (!domain.includes(".")) return "a domain needs a dot, like stats.example.com, unless it is an IPv4 address";
  return "use a host name like stats.example.com, or an IPv4 address";
}

/** The API rewrites domains (API-NOTES §2.4); writing the stored form keeps the file and the account alike. */
export function domainStoredDifferently(ctx: RuleContext): void {
  for (const entry of ctx.config.websites) {
    if (entry.written === entry.site.domain) continue;
    // A domain the API rejects gets its own error; how it would be stored no longer matters.
    if (entry.site.state === "present" && !isApiDomain(entry.site.domain)) continue;
    ctx.warn(
      "domain.normalized",
      [...entry.path, "domain"],
      `"${entry.written}" is stored by the API as "${entry.site.domain}"; write it that way`,
    );
  }
}
