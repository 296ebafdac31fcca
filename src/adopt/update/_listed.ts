/** The passes of an update over the entries the file lists: drift rewritten, tombstones restored, a list emptied. */
import { isMap, isScalar, type YAMLMap, type YAMLSeq } from "yaml";
import { keyName } from "../../config/locate.ts";
import type { WebsiteEntry } from "../../config/normalize.ts";
import type { LiveWebsite } from "../../model/website.ts";
import { type AdoptedField, adoptFields } from "./_fields.ts";
import type { ReadConfig } from "./_read.ts";
import type { UpdateContext } from "./_update-context.ts";
import { drifted, type EntryWork } from "./_work.ts";

/** What the passes over listed entries report: the websites updated, removed and restored. */
export interface ListedSummary {
  updated: { domain: string; fields: AdoptedField[] }[];
  removed: string[];
  restored: string[];
}

/**
 * Adopts the live state of every listed website; returns the indexes of entries whose website is gone.
 * `items`: the list's entries by index (only those the update edits, when the document holds only them).
 */
export function adoptListed(
  ctx: UpdateContext,
  read: ReadConfig,
  items: readonly unknown[],
  work: EntryWork,
  summary: ListedSummary,
): number[] {
  const gone: number[] = [];
  for (const entry of read.normalized.websites) {
    const index = entry.path[1] as number;
    const item = items[index];
    if (refusesVariableDomain(ctx, entry, item)) continue;
    const { domain } = entry.site;
    const site = work.live.get(domain);
    if (work.ignored(domain)) continue;
    if (entry.site.state === "absent") {
      if (site && isMap(item)) restore(ctx, item, entry, read.normalized.defaults, site, summary);
    } else if (!site) {
      gone.push(index);
      summary.removed.push(domain);
    } else {
      const fields = work.fields.get(index) ?? [];
      if (isMap(item)) adoptFields(ctx, item, entry.path, fields, site);
      else if (fields.length > 0) {
        const message = "this entry is not written as a mapping (an alias?); write it out so that it can be updated";
        ctx.refuse(entry.path, "update.entry", message);
      }
      if (isMap(item) && fields.length > 0) summary.updated.push({ domain, fields });
    }
  }
  return gone;
}

function refusesVariableDomain(ctx: UpdateContext, entry: WebsiteEntry, item: unknown): boolean {
  const domainNode = isMap(item) ? item.get("domain", true) : undefined;
  if (!isScalar(domainNode) || !ctx.hasVariable(domainNode)) return false;
  const message =
    "the domain comes from a ${VAR} reference, so which website this entry is depends on the environment; write the domain itself";
  ctx.refuse([...entry.path, "domain"], "update.variable", message);
  return true;
}

/** Every listed website is gone: `websites: []` keeps the file valid (the schema requires the key). */
export function emptyList(ctx: UpdateContext, list: YAMLSeq): void {
  const key = isMap(ctx.doc.contents) ? ctx.doc.contents.items.find((pair) => pair.value === list)?.key : undefined;
  const keyEnd = (key as { range?: number[] } | undefined)?.range?.[1];
  const end = list.range?.[1];
  if (keyEnd === undefined || end === undefined) {
    ctx.refuse(["websites"], "update.flow-list", 'cannot empty this websites list; write it as "websites: []"');
    return;
  }
  const afterLast = list.flow ? end : ctx.source.start(ctx.source.lineOf(end - 1) + 1);
  ctx.edits.replace(keyEnd, afterLast, list.flow ? ": []" : `: []${ctx.source.eol}`);
}

/** A tombstone whose website exists again: drop `state: absent`, and write what differs from `defaults`. */
function restore(
  ctx: UpdateContext,
  item: YAMLMap,
  entry: WebsiteEntry,
  defaults: ReadConfig["normalized"]["defaults"],
  site: LiveWebsite,
  summary: ListedSummary,
): void {
  const state = item.items.find((pair) => keyName(pair.key) === "state");
  const [keyStart] = (state?.key as { range?: number[] } | undefined)?.range ?? [];
  const valueEnd = (state?.value as { range?: number[] } | undefined)?.range?.[1];
  const line = keyStart === undefined ? undefined : ctx.source.lineOf(keyStart);
  if (item.flow || line === undefined || valueEnd === undefined || ctx.source.lineOf(valueEnd - 1) !== line) {
    ctx.refuse(
      [...entry.path, "state"],
      "update.tombstone",
      "this website exists again in the account; write state: absent on its own line, or remove the entry",
    );
    return;
  }
  ctx.edits.deleteLines(line, line);
  const { password: _password, ...inherited } = defaults;
  const fields = drifted({ domain: entry.site.domain, state: "present", ...inherited }, site);
  adoptFields(ctx, item, entry.path, fields, site);
  summary.restored.push(entry.site.domain);
}
