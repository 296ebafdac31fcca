/**
 * Which lines of a block list belong to which item, so that an item can be removed with its comments and new
 * items placed between the others.
 */
import type { YAMLSeq } from "yaml";
import type { SourceText } from "./_text.ts";

interface ItemSpan {
  /** First line: the comment lines directly above the `-` (no blank line between) belong to the item. */
  first: number;
  /** The line of the item's `-`. */
  dash: number;
  /** Last line: the item's content, and comment lines indented under it that follow it. */
  last: number;
}

export interface ListLayout {
  /** Column of every `-`. */
  dashColumn: number;
  spans: ItemSpan[];
  /** Items are separated by a blank line, so new ones should be too. */
  spaced: boolean;
}

/** The layout of a block sequence; `undefined` for a flow sequence or an item without a position. */
export function listLayout(source: SourceText, seq: YAMLSeq): ListLayout | undefined {
  if (seq.flow || !seq.range) return undefined;
  const dashColumn = source.column(seq.range[0]);
  const isDash = (line: number) => source.indent(line) === dashColumn && source.content(line)[dashColumn] === "-";
  const spans: ItemSpan[] = [];
  for (const item of seq.items) {
    const range = (item as { range?: [number, number, number] }).range;
    if (!range) return undefined;
    let dash = source.lineOf(range[0]);
    while (dash > 0 && !isDash(dash)) dash--;
    const last = source.lineOf(Math.max(range[1] - 1, range[0]));
    spans.push({ first: dash, dash, last });
  }
  spans.forEach((span, i) => {
    const limit = spans[i + 1]?.dash ?? source.lineCount;
    while (span.last + 1 < limit && source.isComment(span.last + 1) && source.indent(span.last + 1) > dashColumn) span.last++;
    const floor = i === 0 ? -1 : (spans[i - 1]?.last ?? -1);
    while (span.first - 1 > floor && source.isComment(span.first - 1) && source.indent(span.first - 1) <= dashColumn) span.first--;
  });
  const spaced = spans.length > 1 && spans.slice(1).every((span) => span.first > 0 && source.isBlank(span.first - 1));
  return { dashColumn, spans, spaced };
}

/**
 * The lines to delete to remove item `index` with its comments, and one run of the blank lines around it,
 * so that the items left keep their spacing.
 */
export function removalLines(source: SourceText, layout: ListLayout, index: number): [number, number] {
  const span = layout.spans[index];
  if (!span) throw new RangeError(`no item ${index}`);
  let { first, last } = span;
  const next = layout.spans[index + 1];
  const previous = layout.spans[index - 1];
  if (next) while (last + 1 < next.first && source.isBlank(last + 1)) last++;
  else if (previous) while (first - 1 > previous.last && source.isBlank(first - 1)) first--;
  return [first, last];
}
