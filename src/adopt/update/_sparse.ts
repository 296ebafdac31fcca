/**
 * The position-keeping document of only what an in-place update edits (DESIGN §8, scale: `yaml`'s parse of a
 * 100,000-website file takes ten seconds; js-yaml's, which the loader runs, a second). The file's text with
 * the entries left alone cut out is parsed with `yaml`, and every node's range is moved back to where it is
 * written in the whole file, so that the edits are made on the file's own text as with the whole document.
 */
import { type Document, isMap, isScalar, type Node, parseDocument, visit } from "yaml";
import { lastAtMost } from "../../model/sorted.ts";
import type { SourceText } from "./_text.ts";

export interface SparseDocument {
  /** The head of the file, the kept entries and what follows the last entry, at the whole file's offsets. */
  doc: Document;
  /** The kept entries by their index in the whole `websites` list; the others are left out. */
  items: readonly unknown[];
}

/**
 * Where each entry of the root's block `websites` list starts: the offset of its line, which opens with `- `
 * and the entry's first key. `undefined` when the file is not written so (a flow list, an entry opening on a
 * line of its own, an indented root) or when the lines found are not `count` entries.
 */
export function entryStarts(source: SourceText, count: number): number[] | undefined {
  let line = 0;
  while (line < source.lineCount && !/^websites:\s*(#.*)?$/.test(source.content(line))) line++;
  const starts: number[] = [];
  let dash = -1;
  for (line++; line < source.lineCount; line++) {
    const text = source.content(line);
    const indent = text.length - text.trimStart().length;
    if (indent === text.length || text[indent] === "#") continue;
    if (dash === -1) dash = indent;
    if (indent < dash || (indent === dash && text[dash] !== "-")) break;
    if (indent > dash) continue;
    if (!/^-\s+[^\s#]/.test(text.slice(dash))) return undefined;
    starts.push(source.start(line));
  }
  return starts.length === count && count > 0 ? starts : undefined;
}

/**
 * The document of the file with only the entries in `keep` (and the last, which holds whatever follows the
 * list), or `undefined` when it does not read as the whole file does: the entries found must hold the domains
 * `domains` says (the loader's values), each where the whole file has it.
 */
export function sparseDocument(
  source: SourceText,
  starts: readonly number[],
  keep: ReadonlySet<number>,
  domains: readonly unknown[],
): SparseDocument | undefined {
  const last = starts.length - 1;
  const kept = [...keep].filter((index) => index < last).sort((a, b) => a - b);
  const segments = new Segments();
  segments.add(0, starts[0] ?? 0);
  for (const index of kept) segments.add(starts[index] ?? 0, starts[index + 1] ?? 0);
  segments.add(starts[last] ?? 0, source.text.length);
  const doc = parseDocument(segments.text(source.text), { uniqueKeys: true, merge: true });
  if (doc.errors.length > 0) return undefined;
  visit(doc, { Node: (_, node) => segments.place(node) });
  const list = doc.get("websites", true) as { items?: unknown[] } | undefined;
  const order = [...kept, last];
  if (!list?.items || list.items.length !== order.length) return undefined;
  const items: unknown[] = [];
  for (const [i, index] of order.entries()) {
    const item = list.items[i];
    const domain = isMap(item) ? item.get("domain", true) : undefined;
    if (!isScalar(domain) || domain.value !== domains[index]) return undefined;
    items[index] = item;
  }
  return { doc, items };
}

/** Ranges of the whole text, joined: an offset of the joined text maps back to the whole text. */
class Segments {
  private readonly from: number[] = [];
  private readonly at: number[] = [];
  private readonly ends: number[] = [];
  private length = 0;

  add(start: number, end: number): void {
    if (end <= start) return;
    if (this.ends.at(-1) === start) {
      this.ends[this.ends.length - 1] = end;
    } else {
      this.from.push(this.length);
      this.at.push(start);
      this.ends.push(end);
    }
    this.length += end - start;
  }

  text(whole: string): string {
    return this.at.map((start, i) => whole.slice(start, this.ends[i])).join("");
  }

  /** Moves a node's range to the whole text: a start at a joint is the later range's, an end the earlier's. */
  place(node: Node): void {
    const range = node.range;
    if (!range) return;
    const [start, value, end] = range;
    const empty = end === start;
    node.range = [this.map(start, false), this.map(value, !empty && value > start), this.map(end, !empty)];
  }

  private map(offset: number, isEnd: boolean): number {
    // An end at a joint belongs to the earlier range: the last range that starts before it, not at it.
    const range = lastAtMost(this.from, isEnd ? offset - 1 : offset);
    return (this.at[range] as number) + offset - (this.from[range] as number);
  }
}
