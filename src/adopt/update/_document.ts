/**
 * The `yaml` document an update edits: of the whole file, or, for an update that only rewrites entries in
 * place in a plain file (no anchor, alias or `${VAR}`, a block list of entries each opening on its `- ` line),
 * of the entries it edits and those that show the file's style (_sparse.ts).
 */
import { type Document, isSeq, visit, type YAMLSeq } from "yaml";
import { isRecord } from "../../config/locate.ts";
import { lastAtMost } from "../../model/sorted.ts";
import type { ReadConfig } from "./_read.ts";
import { entryStarts, sparseDocument } from "./_sparse.ts";
import { FLAG_KEYS, type ValueStyle } from "./_style.ts";
import type { SourceText } from "./_text.ts";
import { type EntryWork, inPlace } from "./_work.ts";

export interface EditedDocument {
  doc: Document;
  /** The entries of `websites` by index: all of them, or only those the update edits. */
  items: readonly unknown[];
  /** Where each entry starts, when the list is written one entry per `- ` line (_sparse.ts). */
  starts: readonly number[] | undefined;
  /** The file's style of values, from the loader's values, when `doc` holds only some entries. */
  values: ValueStyle | undefined;
}

export function documentFor(read: ReadConfig, source: SourceText, work: EntryWork): EditedDocument {
  const websites = isRecord(read.data) && Array.isArray(read.data.websites) ? (read.data.websites as unknown[]) : undefined;
  const starts = websites && !read.anchored && !read.interpolated ? entryStarts(source, websites.length) : undefined;
  if (websites && starts && inPlace(work)) {
    const sparse = sparseOf(read, source, work, starts, websites);
    if (sparse) return sparse;
  }
  const { doc } = read.view;
  const list = doc.get("websites", true);
  return { doc, items: isSeq(list) ? list.items : [], starts, values: undefined };
}

function sparseOf(
  read: ReadConfig,
  source: SourceText,
  work: EntryWork,
  starts: readonly number[],
  websites: readonly unknown[],
): EditedDocument | undefined {
  const keep = new Set<number>(work.restored);
  for (const [index, fields] of work.fields) if (fields.length > 0) keep.add(index);
  const defaults = isRecord(read.data.defaults) ? read.data.defaults : {};
  const filled = hasItems(defaults.exclude_ips) ? -1 : websites.findIndex((entry) => isRecord(entry) && hasItems(entry.exclude_ips));
  if (filled >= 0) keep.add(filled);
  const flow = flowCandidate(source, starts);
  if (flow !== undefined) keep.add(flow);
  const domains = websites.map((entry) => (isRecord(entry) ? entry.domain : undefined));
  const sparse = sparseDocument(source, starts, keep, domains);
  if (!sparse) return undefined;
  // A `[` that opens no list in its entry (in a quoted value, a comment): a later entry may hold the first.
  if (flow !== undefined && flow < starts.length - 1 && !holdsFlowList(sparse.items[flow])) return undefined;
  return { ...sparse, starts, values: valueStyle(defaults, websites) };
}

function hasItems(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}

/**
 * The first entry whose text may hold a non-empty flow list (a `[` before anything but `]`): the file's
 * padding of flow lists is that of the first such list, so every entry before it holds none.
 */
function flowCandidate(source: SourceText, starts: readonly number[]): number | undefined {
  const pattern = /\[\s*[^\]\s]/g;
  pattern.lastIndex = starts[0] ?? 0;
  const found = pattern.exec(source.text);
  return found ? lastAtMost(starts, found.index) : undefined;
}

function holdsFlowList(item: unknown): boolean {
  let found = false;
  visit(item as Parameters<typeof visit>[0], {
    Seq: (_, seq: YAMLSeq) => {
      found ||= seq.flow === true && seq.items.length > 0;
    },
  });
  return found;
}

/** How `defaults` and the entries write privacy and flags, from the values the loader read (_style.ts). */
function valueStyle(defaults: Record<string, unknown>, websites: readonly unknown[]): ValueStyle {
  const maps = [defaults, ...websites.filter(isRecord)];
  const kinds = (keys: readonly string[]) => new Set(maps.flatMap((map) => keys.filter((key) => key in map).map((key) => typeof map[key])));
  return { privacy: kinds(["privacy"]), bits: kinds(FLAG_KEYS) };
}
