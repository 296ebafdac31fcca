/**
 * Rewrites the drifted fields of one website entry to the live values: in place where the entry writes the
 * field, as a new line where it inherits it (from `defaults` or a `<<` merge, which other entries share).
 */
import { type Alias, isAlias, isScalar, isSeq, type Node, type Pair, type Scalar, type YAMLMap, type YAMLSeq } from "yaml";
import { type ConfigPath, keyName } from "../../config/locate.ts";
import type { LiveWebsite } from "../../model/website.ts";
import { FIELD_NAMES, PRIVACY_NAMES, type ReadableField, WEBSITE_FIELDS } from "../../model/website-fields.ts";
import { type FileStyle, renderBit, renderFlowList, renderPrivacy, renderString } from "./_style.ts";
import type { UpdateContext } from "./_update-context.ts";

/** The fields `export --update` adopts: every field the API returns (write-only ones never are). */
export type AdoptedField = ReadableField;

/** Where a new field line goes: after the last key that comes before it in this order. */
const KEY_ORDER: readonly string[] = ["domain", "state", ...FIELD_NAMES];

/** Sets `fields` of the entry `item` (at `path`) to the live values. */
export function adoptFields(ctx: UpdateContext, item: YAMLMap, path: ConfigPath, fields: readonly AdoptedField[], live: LiveWebsite): void {
  for (const field of fields) {
    const pair = item.items.find((p) => keyName(p.key) === field);
    if (pair) rewrite(ctx, pair, [...path, field], field, live);
    else insert(ctx, item, path, field, live);
  }
}

function rewrite(ctx: UpdateContext, pair: Pair, path: ConfigPath, field: AdoptedField, live: LiveWebsite): void {
  const node = pair.value as Node | null;
  if (!node?.range) {
    ctx.refuse(path, "update.unplaced", "this value has no place in the file to rewrite; write it out");
    return;
  }
  if (isAlias(node)) {
    replaceAlias(ctx, node, field, live);
    return;
  }
  if (node.anchor && ctx.aliases.has(node.anchor)) {
    const message = `this value is anchored as &${node.anchor} and used elsewhere through *${node.anchor}; changing it to the live value would change those entries too. Write this entry's value without the anchor, then run again`;
    ctx.refuse(path, "update.shared-anchor", message);
    return;
  }
  if (ctx.hasVariable(node)) {
    const message = `the live value differs, but this value comes from a \${VAR} reference; change the variable (or write the value) so that it says ${describe(field, live)}`;
    ctx.refuse(path, "update.variable", message);
    return;
  }
  if (field === "exclude_ips") {
    if (!isSeq(node)) {
      ctx.refuse(path, "update.not-a-list", "exclude_ips is not a list; write it as one");
      return;
    }
    rewriteList(ctx, pair.key as Scalar, node, path, live.exclude_ips);
    return;
  }
  ctx.edits.replace(node.range[0], node.range[1], scalarText(field, live, ctx.style, node));
}

/** Replacing the alias changes this entry only; the anchored value stays for the others. */
function replaceAlias(ctx: UpdateContext, node: Alias, field: AdoptedField, live: LiveWebsite): void {
  const target = node.resolve(ctx.doc) as Node | undefined;
  const like = isSeq(target) ? undefined : target;
  const { ips } = ctx.style;
  const text =
    field === "exclude_ips"
      ? renderFlowList(
          live.exclude_ips.map((ip) => renderString(ip, ips.quote)),
          ips.padding,
        )
      : scalarText(field, live, ctx.style, like);
  const [start, end] = node.range ?? [0, 0];
  ctx.edits.replace(start, end, text);
}

/** Keeps the entries still live (and their comments), drops the others, appends the new ones in live order. */
function rewriteList(ctx: UpdateContext, key: Scalar, list: YAMLSeq, path: ConfigPath, want: readonly string[]): void {
  const { source, edits, style } = ctx;
  const wanted = new Set(want);
  const items = list.items.filter((item): item is Scalar => isScalar(item) && !!item.range);
  if (items.length !== list.items.length) {
    ctx.refuse(path, "update.list", "this list holds a value sitesync cannot rewrite in place; write each entry as a plain value");
    return;
  }
  const kept = items.filter((item) => wanted.has(String(item.value).trim()));
  const have = new Set(kept.map((item) => String(item.value).trim()));
  const quote = items[0]?.type ?? style.ips.quote;
  const added = [...wanted].filter((ip) => !have.has(ip)).map((ip) => renderString(ip, quote));
  const range = list.range;
  if (!range || !key.range) return;
  if (list.flow || kept.length + added.length === 0) {
    rewriteFlat(ctx, key, list, [...kept.map((item) => source.text.slice(item.range?.[0], item.range?.[1])), ...added]);
    return;
  }
  for (const item of items) {
    if (kept.includes(item)) continue;
    const line = source.lineOf(item.range?.[0] ?? 0);
    if (line !== source.lineOf((item.range?.[1] ?? 1) - 1)) {
      ctx.refuse(path, "update.list", "a list entry spans several lines; write each entry on one line");
      return;
    }
    edits.deleteLines(line, line);
  }
  const last = items.at(-1)?.range;
  if (!last || added.length === 0) return;
  const indent = " ".repeat(source.column(range[0]));
  edits.insertLines(
    source.lineOf(last[1] - 1) + 1,
    added.map((ip) => `${indent}- ${ip}`),
  );
}

/** A flow list rewritten with `entries`; an emptied block list becomes `[]` on the key's line. */
function rewriteFlat(ctx: UpdateContext, key: Scalar, list: YAMLSeq, entries: readonly string[]): void {
  const { source, edits, style } = ctx;
  const [start, end] = list.range ?? [0, 0];
  if (list.flow) {
    const padding = list.items.length > 0 ? source.text[start + 1] === " " : style.ips.padding;
    edits.replace(start, end, renderFlowList(entries, padding));
    return;
  }
  edits.replace(key.range?.[1] ?? start, source.start(source.lineOf(end - 1) + 1), `: []${source.eol}`);
}

function insert(ctx: UpdateContext, item: YAMLMap, path: ConfigPath, field: AdoptedField, live: LiveWebsite): void {
  const { source } = ctx;
  if (item.flow || !item.range) {
    ctx.refuse(path, "update.flow-map", `this entry is written on one line ({...}) and needs a ${field} line; write it as a block mapping`);
    return;
  }
  const rank = KEY_ORDER.indexOf(field);
  const before = item.items.filter((p) => {
    const at = KEY_ORDER.indexOf(keyName(p.key) ?? "");
    return at !== -1 && at < rank;
  });
  const after = before.at(-1) ?? item.items.at(-1);
  const end = (after?.value as Node | null)?.range?.[1] ?? (after?.key as Node | undefined)?.range?.[1] ?? item.range[1];
  const indent = " ".repeat(source.column(item.range[0]));
  ctx.edits.insertLines(source.lineOf(end - 1) + 1, fieldLines(field, live, indent, ctx.style));
}

/** The lines of one field as a new entry line (or lines, for a block list) at `indent`. */
export function fieldLines(field: AdoptedField, live: LiveWebsite, indent: string, style: FileStyle): string[] {
  if (field !== "exclude_ips") return [`${indent}${WEBSITE_FIELDS[field].yaml}: ${scalarText(field, live, style)}`];
  const ips = live.exclude_ips.map((ip) => renderString(ip, style.ips.quote));
  const block = ips.length > 0 && (style.ips.block ?? ips.length > 3);
  if (!block) return [`${indent}exclude_ips: ${renderFlowList(ips, style.ips.padding)}`];
  const dash = indent + " ".repeat(style.ips.dashOffset);
  return [`${indent}exclude_ips:`, ...ips.map((ip) => `${dash}- ${ip}`)];
}

/** A scalar field's live value as the file writes it, by the field's kind in `WEBSITE_FIELDS`. */
function scalarText(field: Exclude<AdoptedField, "exclude_ips">, live: LiveWebsite, style: FileStyle, like?: Node): string {
  const value = live[field];
  switch (WEBSITE_FIELDS[field].kind) {
    case "privacy":
      return renderPrivacy(live.privacy, style, like);
    case "flag":
      return renderBit(Number(value), style, like);
    case "boolean":
      return String(value);
  }
}

function describe(field: AdoptedField, live: LiveWebsite): string {
  if (field === "privacy") return PRIVACY_NAMES[live.privacy];
  const value = live[field];
  return Array.isArray(value) ? `[${value.join(", ")}]` : String(value);
}
