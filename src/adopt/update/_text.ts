/**
 * Line-level edits of the config's source text. `export --update` changes the file by splicing the source,
 * never by re-printing the YAML tree, so that every byte it has no reason to touch stays as it was
 * (comments, spacing, quoting: DESIGN §7).
 */
import { lastAtMost } from "../../model/sorted.ts";

export class SourceText {
  readonly text: string;
  /** The file's own line ending, used for every line written. */
  readonly eol: string;
  private readonly starts: number[];

  constructor(text: string) {
    this.text = text;
    this.eol = text.includes("\r\n") ? "\r\n" : "\n";
    this.starts = [0];
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
    // A final newline does not open an empty last line.
    if (this.starts.length > 1 && this.starts.at(-1) === text.length) this.starts.pop();
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** The 0-based line holding `offset`; a newline belongs to the line it ends. */
  lineOf(offset: number): number {
    return lastAtMost(this.starts, offset);
  }

  /** Where line `line` starts; the end of the text for `lineCount`. */
  start(line: number): number {
    return this.starts[line] ?? this.text.length;
  }

  column(offset: number): number {
    return offset - this.start(this.lineOf(offset));
  }

  content(line: number): string {
    return this.text.slice(this.start(line), this.start(line + 1)).replace(/\r?\n$/, "");
  }

  isBlank(line: number): boolean {
    return this.content(line).trim() === "";
  }

  isComment(line: number): boolean {
    return this.content(line).trimStart().startsWith("#");
  }

  indent(line: number): number {
    const text = this.content(line);
    return text.length - text.trimStart().length;
  }
}

/** A range of the original text and what replaces it. */
export interface Patch {
  start: number;
  end: number;
  text: string;
}

/** `text` (which starts at `offset` of the original) with `patches`, sorted, applied: joined once. */
export function splice(text: string, offset: number, patches: readonly Patch[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const patch of patches) {
    parts.push(text.slice(at, patch.start - offset), patch.text);
    at = Math.max(at, patch.end - offset);
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/** Edits against one `SourceText`, applied together: offsets always refer to the original text. */
export class Edits {
  private readonly replacements: Patch[] = [];
  private readonly deleted = new Set<number>();
  private readonly inserted = new Map<number, string[]>();

  private readonly source: SourceText;

  constructor(source: SourceText) {
    this.source = source;
  }

  replace(start: number, end: number, text: string): void {
    this.replacements.push({ start, end, text });
  }

  deleteLines(first: number, last: number): void {
    for (let line = first; line <= last; line++) this.deleted.add(line);
  }

  /** Inserts whole lines before `line` (`lineCount` appends); lines inserted at one place keep their order. */
  insertLines(line: number, lines: readonly string[]): void {
    this.inserted.set(line, [...(this.inserted.get(line) ?? []), ...lines]);
  }

  get empty(): boolean {
    return this.replacements.length === 0 && this.deleted.size === 0 && this.inserted.size === 0;
  }

  /**
   * Which of the ranges `[starts[i], starts[i + 1])` an edit falls in, or inserts lines at or right after (the
   * last range runs to the end of the text). Conservative: an insertion between two ranges counts for both.
   */
  touched(starts: readonly number[]): Set<number> {
    const { source } = this;
    const spans = this.replacements.map((r) => [r.start, Math.max(r.end, r.start + 1)] as const);
    for (const line of this.deleted) spans.push([source.start(line), source.start(line + 1)]);
    for (const line of this.inserted.keys()) spans.push([source.start(Math.max(line - 1, 0)), source.start(line) + 1]);
    const touched = new Set<number>();
    for (const [from, to] of spans) {
      const low = lastAtMost(starts, from);
      for (let i = low; i < starts.length && (i === low || (starts[i] as number) < to); i++) touched.add(i);
    }
    return touched;
  }

  /** The edited text; with `without`, also leaving out those ranges of the original, which no edit may touch. */
  apply(without: readonly (readonly [number, number])[] = []): string {
    return splice(this.source.text, 0, this.patches(without));
  }

  /**
   * Every edit as a replacement of a range of the original, in source order: a large file may take a thousand
   * edits. Lines inserted where a run of removed lines starts take their place.
   */
  patches(without: readonly (readonly [number, number])[] = []): Patch[] {
    const { source } = this;
    const patches = [...this.replacements, ...without.map(([start, end]) => ({ start, end, text: "" }))];
    for (const [first, last] of runs([...this.deleted].sort((a, b) => a - b))) {
      patches.push({ start: source.start(first), end: source.start(last + 1), text: "" });
    }
    for (const [line, lines] of this.inserted) patches.push(this.insertion(line, lines));
    return patches.sort((a, b) => a.start - b.start || a.end - b.end);
  }

  private insertion(line: number, lines: readonly string[]): Patch {
    const { source } = this;
    const at = source.start(line);
    const body = lines.map((l) => l + source.eol).join("");
    // Appending to a file whose last line has no newline: end that line first.
    const unterminated = at === source.text.length && at > 0 && !source.text.endsWith("\n");
    return { start: at, end: at, text: unterminated ? source.eol + body.slice(0, -source.eol.length) : body };
  }
}

function runs(sorted: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const line of sorted) {
    const last = out.at(-1);
    if (last && last[1] === line - 1) last[1] = line;
    else out.push([line, line]);
  }
  return out;
}
