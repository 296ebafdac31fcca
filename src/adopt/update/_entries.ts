/** Adds and removes whole website entries of the `websites` list. */
import { isMap, isScalar, type Node, type YAMLSeq } from "yaml";
import { byCodePoint } from "../../model/sorted.ts";
import { type LiveWebsite, normalizeDomain } from "../../model/website.ts";
import { READABLE_FIELDS } from "../../model/website-fields.ts";
import { type AdoptedField, fieldLines } from "./_fields.ts";
import { type ListLayout, listLayout, removalLines } from "./_layout.ts";
import { renderString } from "./_style.ts";
import type { UpdateContext } from "./_update-context.ts";
import { holdsUsedAnchor } from "./_update-context.ts";

/** The fields of an added entry, as `sitesync export` writes them (no password: DESIGN §7). */
const EXPORTED: readonly AdoptedField[] = READABLE_FIELDS;

/** Computed once per list: a file may lose hundreds of websites in one update. */
const layouts = new WeakMap<YAMLSeq, ListLayout | undefined>();

function layoutOf(ctx: UpdateContext, list: YAMLSeq): ListLayout | undefined {
  if (!layouts.has(list)) layouts.set(list, listLayout(ctx.source, list));
  return layouts.get(list);
}

export function removeEntry(ctx: UpdateContext, websites: YAMLSeq, index: number): void {
  const item = websites.items[index] as Node;
  const anchor = holdsUsedAnchor(item, ctx.aliases);
  if (anchor !== undefined) {
    const message = `this website is gone from the account, but its entry holds &${anchor}, which other entries use through *${anchor}; move what they share to another entry (or to defaults), then run again`;
    ctx.refuse(["websites", index], "update.shared-anchor", message);
    return;
  }
  const layout = layoutOf(ctx, websites);
  if (!layout) {
    refuseFlow(ctx, index);
    return;
  }
  const [first, last] = removalLines(ctx.source, layout, index);
  ctx.edits.deleteLines(first, last);
}

/**
 * Adds live websites as new entries: each at its sorted place when the file lists its domains in order (by
 * code point, or as `export` sorts them), else at the end in domain order.
 */
export function addEntries(ctx: UpdateContext, websites: YAMLSeq, sites: readonly LiveWebsite[]): void {
  if (sites.length === 0) return;
  const domains = websites.items.map(domainOf);
  const sorted = ORDERS.find((compare) => domains.every((d, i) => i === 0 || inOrder(compare, domains[i - 1], d)));
  const ordered = [...sites].sort((a, b) => (sorted ?? byCodePoint)(normalizeDomain(a.domain), normalizeDomain(b.domain)));
  if (websites.items.length === 0) {
    addToEmpty(ctx, websites, ordered);
    return;
  }
  const layout = layoutOf(ctx, websites);
  if (!layout) {
    refuseFlow(ctx, 0);
    return;
  }
  const lines = (site: LiveWebsite) => entryLines(ctx, layout, site);
  const end = (layout.spans.at(-1)?.last ?? 0) + 1;
  for (const site of ordered) {
    const domain = normalizeDomain(site.domain);
    const at = sorted ? domains.findIndex((d) => d !== undefined && sorted(d, domain) > 0) : -1;
    const span = layout.spans[at];
    if (span) ctx.edits.insertLines(span.first, [...lines(site), ...(layout.spaced ? [""] : [])]);
    else ctx.edits.insertLines(end, [...(layout.spaced ? [""] : []), ...lines(site)]);
  }
}

type Compare = (a: string, b: string) => number;

/** How `plan` orders domains, and how `sitesync export` sorts them. */
const ORDERS: readonly Compare[] = [byCodePoint, (a, b) => a.localeCompare(b)];

function inOrder(compare: Compare, a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && compare(a, b) <= 0;
}

/** `websites: []` becomes a block list. */
function addToEmpty(ctx: UpdateContext, websites: YAMLSeq, sites: readonly LiveWebsite[]): void {
  const key = (ctx.doc.contents as { items?: { key: unknown; value: unknown }[] }).items?.find((p) => p.value === websites)?.key as
    | Node
    | undefined;
  if (!websites.range || !key?.range) {
    refuseFlow(ctx, 0);
    return;
  }
  const layout: ListLayout = { dashColumn: ctx.source.column(key.range[0]) + 2, spans: [], spaced: false };
  const lines = sites.flatMap((site) => entryLines(ctx, layout, site));
  ctx.edits.replace(key.range[1], websites.range[1], `:${ctx.source.eol}${lines.join(ctx.source.eol)}`);
}

/** A file without a websites list (a root of `include:` only): a `websites:` block at its end, in domain order. */
export function appendList(ctx: UpdateContext, sites: readonly LiveWebsite[]): void {
  const root = ctx.doc.contents;
  if (!isMap(root) || root.flow || !root.range) {
    ctx.refuse([], "update.no-websites", 'the file has no websites list to add the account\'s websites to; add "websites: []"');
    return;
  }
  const column = ctx.source.column(root.range[0]);
  const layout: ListLayout = { dashColumn: column + 2, spans: [], spaced: false };
  const ordered = [...sites].sort((a, b) => byCodePoint(normalizeDomain(a.domain), normalizeDomain(b.domain)));
  const lines = [`${" ".repeat(column)}websites:`, ...ordered.flatMap((site) => entryLines(ctx, layout, site))];
  ctx.edits.insertLines(ctx.source.lineCount, lines);
}

function entryLines(ctx: UpdateContext, layout: ListLayout, site: LiveWebsite): string[] {
  const dash = " ".repeat(layout.dashColumn);
  const first = ctx.doc.getIn(["websites", 0], true);
  const offset = isMap(first) && first.range && !first.flow ? ctx.source.column(first.range[0]) - layout.dashColumn : 2;
  const indent = dash + " ".repeat(Math.max(offset, 2));
  const head = `${dash}-${" ".repeat(Math.max(offset, 2) - 1)}domain: ${renderString(normalizeDomain(site.domain))}`;
  return [head, ...EXPORTED.flatMap((field) => fieldLines(field, site, indent, ctx.style))];
}

function domainOf(item: unknown): string | undefined {
  const domain = isMap(item) ? item.get("domain", true) : undefined;
  return isScalar(domain) && typeof domain.value === "string" ? normalizeDomain(domain.value) : undefined;
}

function refuseFlow(ctx: UpdateContext, index: number): void {
  const message =
    'websites is written as a flow list ([...]); write it as a block list (one "- domain: ..." per entry) so that entries can be added and removed';
  ctx.refuse(["websites", index], "update.flow-list", message);
}
