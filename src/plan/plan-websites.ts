/** The website half of `plan` (DESIGN §3): identity by normalized domain, then create, update or delete. */
import { type LiveCopy, managedCopies } from "../model/managed-copy.ts";
import { byCodePoint } from "../model/sorted.ts";
import { type DesiredWebsite, type LiveWebsite, normalizeDomain } from "../model/website.ts";
import { WRITE_ONLY_FIELDS } from "../model/website-fields.ts";
import { type Filters, pruned, sourceOf, type Tally, warn } from "./_tally.ts";
import { createFields, type UpdateDiff, updateFields, type WriteOnlyInputs } from "./diff-website.ts";
import { websiteFingerprint } from "./fingerprint.ts";
import { type ChangeSends, liveSends } from "./follow-change.ts";
import type { PlanWarning, SecretNeed } from "./types.ts";

/** How write-only values are sent: `--sync-write-only`, and the edits of a known change. */
export interface WriteOnlyPolicy {
  sync: boolean;
  change: ChangeSends | undefined;
}

/** Plans every website of both sides into the tally. */
export function planWebsites(
  desired: readonly DesiredWebsite[],
  live: readonly LiveWebsite[],
  filters: Filters,
  writeOnly: WriteOnlyPolicy,
  tally: Tally,
): void {
  const { byDomain, extras } = indexLive(live, tally);
  // Domains listed without a live copy; a copy's own flag says whether an entry listed it (no second lookup).
  const listed = new Set<string>();
  // In the file's order, which decides which of two entries for one domain is planned; the changes are
  // ordered by `plan`, the warnings here (a few) by domain below: no sort of 100,000 entries (DESIGN §8).
  const warned = tally.warnings.length;
  for (const written of desired) {
    const d = withDomain(written, normalizeDomain(written.domain));
    const copy = byDomain.get(d.domain);
    if (copy ? copy.listed : listed.has(d.domain)) {
      const message = `${d.domain} is listed more than once: only one entry is planned.`;
      warn(tally, "duplicate-domain", d.domain, message, d.source);
      continue;
    }
    if (copy) copy.listed = true;
    else listed.add(d.domain);
    const current = copy?.site;
    const pattern = filters.ignore(d.domain);
    if (pattern !== undefined) {
      tally.left.ignored++;
      const message = `${d.domain} matches policy.ignore "${pattern}": it is not compared, changed or deleted.`;
      warn(tally, "ignored", d.domain, message, d.source);
    } else if (d.state === "absent") planTombstone(d, current, filters, tally);
    else if (current === undefined) planCreate(d, tally);
    else planUpdate(d, current, inputsFor(d.domain, current, writeOnly), tally);
  }
  byDomainFrom(tally.warnings, warned);
  for (const copy of byDomain.values()) if (!copy.listed) planUnlisted(copy, filters, tally);
  // A second live copy of a managed domain is never pruned: which copy holds the statistics is for a person to say.
  tally.left.unmanaged += extras.length;
}

function planCreate(d: DesiredWebsite, tally: Tally): void {
  // favorite is only settable by PUT, so a favorite create is a POST then a PUT (DESIGN §4).
  const requests = d.favorite === true ? 2 : 1;
  const fields = createFields(d);
  // The API refuses a password site created without one (API-NOTES §2.4): planned, flagged, never sent.
  const needs = d.privacy === 2 && d.password === undefined ? { needs: { secret: "password", because: "create" } as const } : {};
  tally.changes.push({ kind: "website", action: "create", domain: d.domain, fields, requests, ...needs, ...sourceOf(d) });
}

/** The inputs of every website when no change is known: one object each, not one per website. */
const SYNCED: WriteOnlyInputs = Object.freeze({ sync: true });
const UNSYNCED: WriteOnlyInputs = Object.freeze({ sync: false });

/** The write-only inputs of one website: `--sync-write-only`, and what the change still sends it (when a change is known). */
function inputsFor(domain: string, live: LiveWebsite, writeOnly: WriteOnlyPolicy): WriteOnlyInputs {
  const { change } = writeOnly;
  if (change === undefined) return writeOnly.sync ? SYNCED : UNSYNCED;
  return { sync: writeOnly.sync, change: { ref: change.ref, ...liveSends(change, domain, live) } };
}

function planUpdate(d: DesiredWebsite, live: LiveWebsite, writeOnly: WriteOnlyInputs, tally: Tally): void {
  const { fields, passwordMissing } = updateFields(d, live, writeOnly);
  // With a known change, a write-only value it does not edit is the one the base already sent (DESIGN §3).
  if (writeOnly.change === undefined) {
    for (const field of WRITE_ONLY_FIELDS) {
      if (d[field] !== undefined && !fields.some((f) => f.field === field)) tally.unverifiable[field]++;
    }
  }
  const needs = secretNeed(passwordMissing, writeOnly);
  if (fields.length === 0 && needs === undefined) {
    tally.left.unchanged++;
    return;
  }
  const fingerprint = websiteFingerprint(live);
  const change = { kind: "website", action: "update", domain: d.domain, id: live.id, fields, fingerprint } as const;
  tally.changes.push({ ...change, ...(needs ? { needs } : {}), ...sourceOf(d) });
}

/** The password an update must send and the config does not set, as the change's flag (DESIGN §2). */
function secretNeed(missing: UpdateDiff["passwordMissing"], writeOnly: WriteOnlyInputs): SecretNeed | undefined {
  if (missing === "privacy") return { secret: "password", because: "privacy-change" };
  if (missing === "rotated") return { secret: "password", because: "rotated", ref: writeOnly.change?.ref ?? "" };
  return undefined;
}

function planTombstone(d: DesiredWebsite, live: LiveWebsite | undefined, filters: Filters, tally: Tally): void {
  if (live === undefined) return;
  const pattern = filters.protect(d.domain);
  if (pattern !== undefined) {
    // Config validation already rejects this (DESIGN §2); a library caller may still get here.
    tally.left.unmanaged++;
    const message = `${d.domain} says state: absent but matches policy.protect "${pattern}": it is not deleted.`;
    warn(tally, "protected-tombstone", d.domain, message, d.source);
    return;
  }
  const fingerprint = websiteFingerprint(live);
  tally.changes.push({
    kind: "website",
    action: "delete",
    domain: d.domain,
    id: live.id,
    reason: "tombstone",
    fingerprint,
    ...sourceOf(d),
  });
}

function planUnlisted({ domain, site }: LiveCopy, filters: Filters, tally: Tally): void {
  if (!pruned(domain, filters, tally)) return;
  const fingerprint = websiteFingerprint(site);
  tally.changes.push({ kind: "website", action: "delete", domain, id: site.id, reason: "prune", fingerprint });
}

/** A live copy, and whether an entry of the file listed it. */
interface Listed extends LiveCopy {
  listed: boolean;
}

/** Live websites by normalized domain (the managed copy: model/managed-copy.ts); each other copy is a warning. */
function indexLive(live: readonly LiveWebsite[], tally: Tally): { byDomain: Map<string, Listed>; extras: Listed[] } {
  const { byDomain, extras } = managedCopies(live, (domain, site): Listed => ({ domain, site, listed: false }));
  for (const entry of extras) {
    const message = `The account holds ${entry.domain} more than once: id ${entry.site.id} is left alone (never compared or deleted).`;
    warn(tally, "duplicate-live", entry.domain, message);
  }
  return { byDomain, extras };
}

/** Sorts `list[from..]` by subject in place, stably, as the desired entries' warnings were when they were planned in domain order. */
function byDomainFrom(list: PlanWarning[], from: number): void {
  const tail = list.slice(from).sort((a, b) => byCodePoint(a.subject ?? "", b.subject ?? ""));
  for (const [i, warning] of tail.entries()) list[from + i] = warning;
}

/** Copies only when normalizing changed something: planning 100,000 websites should not copy them all (DESIGN §8). */
function withDomain(d: DesiredWebsite, domain: string): DesiredWebsite {
  return domain === d.domain ? d : { ...d, domain };
}
