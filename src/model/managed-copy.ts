/**
 * Which live copy of a domain the config manages, in one place (DESIGN §4). The API keeps domains unique
 * (API-NOTES §2.4) but compares raw strings, so `example.com.` and `example.com` can both exist. Should two
 * normalize alike, the one stored exactly as the normalized form (then the lowest id) is managed; the others
 * are left alone, by `plan` and by `export --update` alike.
 */
import { byCodePoint } from "./sorted.ts";
import { type LiveWebsite, normalizeDomain } from "./website.ts";

/** A live website under its normalized domain. */
export interface LiveCopy {
  domain: string;
  site: LiveWebsite;
}

/**
 * The managed copy of each normalized domain, in the order the account lists them, and the other copies in
 * domain order. One pass, no sort of the whole account: a plan of 100,000 websites pays for the map alone.
 * `copyOf` makes each entry, so that a caller can keep its own state beside it (plan marks those listed).
 */
export function managedCopies<C extends LiveCopy>(
  live: readonly LiveWebsite[],
  copyOf: (domain: string, site: LiveWebsite) => C,
): { byDomain: Map<string, C>; extras: C[] } {
  const byDomain = new Map<string, C>();
  const extras: C[] = [];
  for (const site of live) {
    const entry = copyOf(normalizeDomain(site.domain), site);
    const held = byDomain.get(entry.domain);
    if (held === undefined) byDomain.set(entry.domain, entry);
    else if (before(entry, held) < 0) {
      byDomain.set(entry.domain, entry);
      extras.push(held);
    } else extras.push(entry);
  }
  return { byDomain, extras: extras.sort(before) };
}

/** By domain; of one domain, the copy stored exactly as the normalized form first, then the lowest id. */
function before(a: LiveCopy, b: LiveCopy): number {
  return byCodePoint(a.domain, b.domain) || exact(b) - exact(a) || a.site.id - b.site.id;
}

function exact(entry: LiveCopy): number {
  return entry.site.domain === entry.domain ? 1 : 0;
}
