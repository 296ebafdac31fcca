/**
 * What of the live account a config can hold, for `export` (DESIGN §7: the exported file validates and plans
 * to no changes). The API takes `exclude_ips` as free text (API-NOTES §2.4), so an account can hold a line
 * such as `10.0.0.1 # office` that a config refuses; and it compares raw domains, so it can hold two copies
 * of one domain. Export writes what a config can hold and leaves out the rest, saying so in the file and in
 * a warning: a file that fails `validate` would stop every plan of every website in it.
 */
import { managedCopies } from "../model/managed-copy.ts";
import { isApiDomain, type LiveWebsite } from "../model/website.ts";
import { shortKey } from "./locate.ts";
import { entryProblem } from "./rules/exclude-ips.ts";

/** A live website, or one field of it, that export leaves out of the file. */
export interface LeftOut {
  /** The domain as the account stores it. */
  domain: string;
  id: number;
  /** The one field left out; without it, the whole website is. */
  field?: "exclude_ips";
  /** Why, and what to do, in a sentence. */
  why: string;
}

/** A website the file lists: under its normalized domain, with its `exclude_ips` or without them. */
export interface Listed {
  site: LiveWebsite;
  domain: string;
  /** Set when the site's `exclude_ips` hold a line a config refuses: the file leaves the field out. */
  excludeIpsLeftOut?: LeftOut;
}

/**
 * The websites a config can list, in the account's order, and what is left out: the second copy of a
 * domain (plan manages one copy and leaves the others alone, DESIGN §4), a domain the API rejects today,
 * and `exclude_ips` that hold a line that is not an address or a range (the field is then unmanaged for that
 * website, as when a file does not set it, DESIGN §2).
 */
export function fitWebsites(live: readonly LiveWebsite[], holdsSecret: (text: string) => boolean = () => false): Fitted {
  const { byDomain, extras } = managedCopies(live, (domain, site) => ({ domain, site }));
  const leftOut: LeftOut[] = [];
  const listed: Listed[] = [];
  for (const { domain, site } of byDomain.values()) {
    if (!isApiDomain(domain) || holdsSecret(site.domain)) {
      leftOut.push({ domain: site.domain, id: site.id, why: isApiDomain(domain) ? SECRET_DOMAIN : REJECTED });
      continue;
    }
    const problem = site.exclude_ips.some(holdsSecret) ? SECRET_LINE : firstIpProblem(site.exclude_ips);
    if (problem === undefined) {
      listed.push({ site, domain });
      continue;
    }
    const why = `exclude_ips left out: the account's line ${problem}; correct it in phpAnalytics and export again (until then the file leaves this website's exclude_ips as they are)`;
    const excludeIpsLeftOut: LeftOut = { domain: site.domain, id: site.id, field: "exclude_ips", why };
    listed.push({ site, domain, excludeIpsLeftOut });
    leftOut.push(excludeIpsLeftOut);
  }
  for (const extra of extras) {
    const managed = byDomain.get(extra.domain)?.site.id;
    const why = isApiDomain(extra.domain)
      ? `a second copy of ${extra.domain} (the file lists id ${managed}); a plan leaves this copy alone: delete the one you do not need in phpAnalytics`
      : REJECTED;
    leftOut.push({ domain: extra.site.domain, id: extra.site.id, why });
  }
  // By domain, as the file sorts its entries.
  return { listed, leftOut: leftOut.sort((a, b) => a.domain.localeCompare(b.domain) || a.id - b.id) };
}

/** What export gives back: the websites the file lists, and what it leaves out. */
export interface Fitted {
  listed: Listed[];
  leftOut: LeftOut[];
}

// A secret of the run is masked in every output (DESIGN §12): written masked, the value would be another one.
const SECRET_DOMAIN =
  "its domain holds a secret of this run (the API key or a password), which sitesync never writes; a plan leaves it alone while policy.prune is off";
const SECRET_LINE = "holds a secret of this run (the API key or a password), which sitesync never writes";
const REJECTED = `the API rejects this domain ("Invalid domain name."), so no config can list it; a plan leaves it alone while policy.prune is off`;

/** The first line of a live `exclude_ips` that a config refuses, in the validator's words (rules/exclude-ips.ts). */
function firstIpProblem(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    // A line of 100,000 characters is shown by its start and its length, in the file and in the warning.
    const problem = entryProblem(line, shortKey);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
