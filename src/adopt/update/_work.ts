/**
 * What an update does to each entry, decided from the values the loader read before any edit: which
 * entries drifted (and in which fields), which are gone from the account, which live websites no entry lists.
 */
import { firstMatch } from "../../model/glob.ts";
import { managedCopies } from "../../model/managed-copy.ts";
import type { DesiredWebsite, LiveWebsite } from "../../model/website.ts";
import { WRITE_ONLY_FIELDS } from "../../model/website-fields.ts";
import { updateFields } from "../../plan/diff-website.ts";
import type { AdoptedField } from "./_fields.ts";
import type { ReadConfig } from "./_read.ts";

export interface EntryWork {
  /** Live websites by normalized domain. */
  live: ReadonlyMap<string, LiveWebsite>;
  ignored: (domain: string) => boolean;
  /** The drifted fields of each present entry whose website is live, by the entry's index in `websites`. */
  fields: ReadonlyMap<number, AdoptedField[]>;
  /** Entries whose website is gone from the account (not ignored, not tombstones), by index. */
  gone: number[];
  /** Tombstones whose website exists again, by index. */
  restored: number[];
  /** Live websites no entry lists, not ignored. */
  unlisted: LiveWebsite[];
  /** Whether the unlisted are added: `policy.prune` or `--add-unlisted`. */
  adding: boolean;
}

export function entryWork(read: ReadConfig, websites: readonly LiveWebsite[], addUnlisted: boolean): EntryWork {
  const { normalized } = read;
  const ignored = (domain: string) => firstMatch(normalized.policy.ignore, domain) !== undefined;
  const live = liveByDomain(websites);
  const work = { live, ignored, fields: new Map<number, AdoptedField[]>(), gone: [] as number[], restored: [] as number[] };
  for (const entry of normalized.websites) {
    const index = entry.path[1] as number;
    const { domain } = entry.site;
    const site = live.get(domain);
    if (ignored(domain)) continue;
    if (entry.site.state === "absent") {
      if (site) work.restored.push(index);
    } else if (!site) work.gone.push(index);
    else work.fields.set(index, drifted(entry.site, site));
  }
  const listed = new Set(normalized.websites.map((entry) => entry.site.domain));
  const unlisted = [...live].filter(([domain]) => !listed.has(domain) && !ignored(domain)).map(([, site]) => site);
  return { ...work, unlisted, adding: normalized.policy.prune || addUnlisted };
}

/** The compared fields that differ, as `plan` compares them (write-only fields never are). */
export function drifted(desired: DesiredWebsite, live: LiveWebsite): AdoptedField[] {
  const writeOnly: readonly string[] = WRITE_ONLY_FIELDS;
  return updateFields(desired, live, { sync: false })
    .fields.map((change) => change.field)
    .filter((field): field is AdoptedField => !writeOnly.includes(field));
}

/** Live websites by normalized domain: where two normalize alike, the copy `plan` manages (model/managed-copy.ts). */
function liveByDomain(websites: readonly LiveWebsite[]): Map<string, LiveWebsite> {
  return new Map([...managedCopies(websites, (domain, site) => ({ domain, site })).byDomain].map(([domain, copy]) => [domain, copy.site]));
}

/** Whether the update only rewrites entries in place: nothing added or removed. */
export function inPlace(work: EntryWork): boolean {
  return work.gone.length === 0 && !(work.adding && work.unlisted.length > 0);
}
