/**
 * Which live copy of a domain the config manages, in one place (DESIGN §4). The API keeps domains unique
 * (API-NOTES §2.4) but compares raw strings, so `example.com.` and `example.com` can both exist. Should two
 * normalize alike, the one stored exactly as the normalized form (then the lowest id) is managed; the others
 * are left alone, by `plan` and by `export --update` alike.
 */
import { type LiveWebsite, normalizeDomain } from "./website.ts";

/** A live website under its normalized domain. */
export interface LiveCopy {
  domain: string;
  site: LiveWebsite;
}

/** The managed copy of each normalized domain, and the other copies, in domain order. */
export function managedCopies(live: readonly LiveWebsite[]): { byDomain: Map<string, LiveCopy>; extras: LiveCopy[] } {
  const sorted = live
    .map((site) => ({ domain: normalizeDomain(site.domain), site }))
    .sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0) || exact(b) - exact(a) || a.site.id - b.site.id);
  const byDomain = new Map<string, LiveCopy>();
  const extras: LiveCopy[] = [];
  for (const entry of sorted) {
    if (byDomain.has(entry.domain)) extras.push(entry);
    else byDomain.set(entry.domain, entry);
  }
  return { byDomain, extras };
}

function exact(entry: LiveCopy): number {
  return entry.site.domain === entry.domain ? 1 : 0;
}
