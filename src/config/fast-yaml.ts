/**
 * The fast parse of a config file (DESIGN §2 "Loading", §10): js-yaml without position tracking, bounded
 * while it parses (DESIGN §12), values read as the `yaml` package reads them. A listener sees each node open
 * and close: it counts nodes and depth, sizes what aliases expand to, notes what only the position-keeping
 * parse reads the same way (tags, directives, anchors), and keeps the one position every load needs: where
 * each website's domain and each project's name is written.
 */
import { type EventType, load, type State } from "js-yaml";
import type { SourcePos } from "../model/website.ts";
import { CORE_SCHEMA_AS_YAML_READS } from "./core-schema.ts";

/** The deepest nesting read: a config needs 6 levels (accounts, a name, policy, protect, an item). */
export const MAX_DEPTH = 32;
/**
 * The most nodes one file may hold, aliases counted as the copies they stand for: the export of a
 * 100,000-website account holds about 1.4 million, and one at the byte cap 6.5 million (bench/RESULTS.md).
 */
const MAX_NODES = 8_000_000;

/** Where a parse stopped, and why: a bound crossed, or YAML js-yaml cannot read. */
export interface FastFailure {
  ok: false;
  /** 1-based. */
  line: number;
  column: number;
  /** Set when a bound stopped the parse: the words of the diagnostic. */
  bound?: { code: string; message: string };
  /** js-yaml's own reason otherwise: the position-keeping parse words the diagnostic. */
  reason?: string;
}

export interface FastParse {
  ok: true;
  /** The file's value; `null` for an empty file, as `yaml` reads it. `<<` merge keys are still keys. */
  value: unknown;
  /** Where `websites[i].domain` and `projects[i].project` are written, when a plain scalar says it. */
  names: { websites: (Position | undefined)[]; projects: (Position | undefined)[] };
  /** Some node carries an anchor or is an alias: an edit of one place may change another. */
  anchored: boolean;
  /** Some mapping has a `<<` key written plainly: merge it (merge-keys.ts). */
  merges: boolean;
  /**
   * An explicit tag or a directive (`%YAML`): js-yaml and `yaml` may read such a file differently, so its
   * values are compared with the position-keeping parse before use.
   */
  unusual: boolean;
  /**
   * Some string holds `${` or some key may be `password`: interpolation has work to do. Without either (an
   * export), nothing is read from the environment and no password is written, so its walk is skipped.
   */
  interpolates: boolean;
}

export type Position = Pick<SourcePos, "line" | "column">;

class Stop extends Error {
  readonly at: { line: number; column: number };
  readonly bound: { code: string; message: string };
  constructor(at: { line: number; column: number }, bound: { code: string; message: string }) {
    super(bound.message);
    this.at = { line: at.line, column: at.column };
    this.bound = bound;
  }
}

/** Parses `text` fast; never throws. */
export function parseFast(text: string): FastParse | FastFailure {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const watch = new Watch(text, bom);
  try {
    // The depth js-yaml stops at itself is past ours: the listener words it first.
    const value = load(text, { schema: CORE_SCHEMA_AS_YAML_READS, listener: watch.listener, maxDepth: MAX_DEPTH + 2 } as Parameters<
      typeof load
    >[1]);
    return { ok: true, value: value ?? null, ...watch.result(text) };
  } catch (cause) {
    if (cause instanceof Stop) return { ok: false, ...cause.at, bound: cause.bound };
    const mark = (cause as { mark?: { line: number; column: number } }).mark;
    const reason = (cause as { reason?: string }).reason ?? String(cause);
    return { ok: false, line: (mark?.line ?? 0) + 1, column: (mark?.column ?? 0) + 1 + (mark?.line === 0 ? bom : 0), reason };
  }
}

interface Frame {
  /** Where js-yaml opened the node (before spaces and comments), with its line (0-based) and line start. */
  open: number;
  line: number;
  lineStart: number;
  children: number;
  /** The last key read, when the node is a mapping. */
  key: unknown;
  /** Nodes below it, aliases counted as what they stand for. */
  size: number;
  /** The position of this mapping's `domain` or `project` value, with the key. */
  name: (Position & { key: string }) | undefined;
  /** The names of its items, for the root's `websites` and `projects`. */
  names: ((Position & { key: string }) | undefined)[] | undefined;
}

/** js-yaml's state as its listener sees it: `anchor` is there, though not in its published types. */
type ParseState = State & { anchor: string | null };

/**
 * What the listener keeps while js-yaml parses. One frame per depth, reused (a 100,000-website file opens
 * 1.4 million nodes); a node's first character is looked for only where it matters: a name's position, a
 * quoted `<<`, and a tag in a file that holds a `!` at all.
 */
class Watch {
  readonly listener: (event: EventType, state: State) => void;
  private readonly frames: Frame[] = [];
  private depth = 0;
  private nodes = 0;
  private readonly sizes = new WeakMap<object, number>();
  private readonly text: string;
  private readonly bom: number;
  private readonly tags: boolean;
  anchored = false;
  merges = false;
  tagged = false;
  interpolates = false;
  private readonly dollars: boolean;
  rootAt = -1;
  names = { websites: [] as (Position | undefined)[], projects: [] as (Position | undefined)[] };

  constructor(text: string, bom: number) {
    this.text = text;
    this.bom = bom;
    this.tags = text.includes("!");
    this.dollars = text.includes("${");
    for (let i = 0; i <= MAX_DEPTH; i++) {
      this.frames.push({ open: 0, line: 0, lineStart: 0, children: 0, key: undefined, size: 0, name: undefined, names: undefined });
    }
    this.listener = (event, state) => (event === "open" ? this.open(state) : this.close(state as ParseState));
  }

  private open(state: State): void {
    if (++this.nodes > MAX_NODES) this.stop(state, "yaml.nodes", `the file holds more than ${MAX_NODES.toLocaleString("en")} YAML nodes`);
    if (this.depth >= MAX_DEPTH) {
      this.stop(state, "yaml.depth", `the YAML nests deeper than ${MAX_DEPTH} levels (a config needs fewer than 10)`);
    }
    const frame = this.frames[this.depth++] as Frame;
    frame.open = state.position + this.bom;
    frame.line = state.line;
    // yaml counts a byte order mark as a column of the first line.
    frame.lineStart = state.line === 0 ? 0 : state.lineStart + this.bom;
    frame.children = 0;
    frame.key = undefined;
    frame.size = 0;
    frame.name = undefined;
    frame.names = undefined;
    if (this.rootAt === -1) this.rootAt = this.start(frame).at;
    // The value of the root's `websites` or `projects`: its items' names are kept.
    const parent = this.depth === 2 ? (this.frames[0] as Frame) : undefined;
    if (parent && parent.children % 2 === 1 && (parent.key === "websites" || parent.key === "projects")) frame.names = [];
  }

  private close(state: ParseState): void {
    const frame = this.frames[--this.depth] as Frame;
    const isAlias = state.kind === null && state.result !== null;
    if (isAlias || state.anchor !== null) this.anchored = true;
    if (this.tags && this.text.charCodeAt(this.start(frame).at) === 0x21 /* ! */) this.tagged = true;
    const size = isAlias ? (this.sizes.get(state.result as object) ?? 1) : frame.size + 1;
    if (isAlias) this.nodes += size - 1;
    if (isAlias && this.nodes > MAX_NODES) {
      const at = this.start(frame);
      throw new Stop(at, {
        code: "yaml.aliases",
        message: `the aliases expand the file past ${MAX_NODES.toLocaleString("en")} YAML nodes`,
      });
    }
    if (state.anchor !== null && typeof state.result === "object" && state.result !== null) this.sizes.set(state.result, size);
    if (this.depth === 0) return;
    const parent = this.frames[this.depth - 1] as Frame;
    parent.size += size;
    const index = parent.children++;
    if (!this.interpolates) this.interpolates = this.interpolated(state.result, index);
    if (index % 2 === 0) {
      parent.key = state.result;
      // A quoted "<<" is a plain key to `yaml`: such a file is compared with it before use.
      if (state.result === "<<") this.mergeKey(frame);
      // A null key is "" to `yaml` and "null" to js-yaml: such a file is compared with yaml before use.
      if (state.result === null) this.tagged = true;
    } else if ((parent.key === "domain" || parent.key === "project") && typeof state.result === "string") {
      const at = this.start(frame);
      if (isScalarStart(this.text.charCodeAt(at.at))) parent.name = { key: parent.key, line: at.line, column: at.column };
    }
    if (parent.names) parent.names.push(frame.name);
    if (this.depth === 1 && frame.names && index % 2 === 1) this.keepNames(parent.key, frame.names);
  }

  /** Whether a node may hold work for interpolation: a string with `${`; a `password` key (a list's items count too). */
  private interpolated(value: unknown, index: number): boolean {
    if (typeof value !== "string") return false;
    return (this.dollars && value.includes("${")) || (index % 2 === 0 && value === "password");
  }

  /** Each item's name, where the item says it with the list's own key (`domain` for websites). */
  private keepNames(list: unknown, names: ((Position & { key: string }) | undefined)[]): void {
    const key = list === "websites" ? "domain" : "project";
    this.names[list as "websites" | "projects"] = names.map((name) =>
      name?.key === key ? { line: name.line, column: name.column } : undefined,
    );
  }

  private mergeKey(frame: Frame): void {
    const quote = this.text.charCodeAt(this.start(frame).at);
    if (quote === 0x22 || quote === 0x27) this.tagged = true;
    else this.merges = true;
  }

  private start(frame: Frame): { at: number; line: number; column: number } {
    return skipSpace(this.text, frame.open, frame.line, frame.lineStart);
  }

  private stop(state: State, code: string, message: string): never {
    const at = { line: state.line + 1, column: state.position - state.lineStart + 1 + (state.line === 0 ? this.bom : 0) };
    throw new Stop(at, { code, message });
  }

  result(text: string): Omit<FastParse, "ok" | "value"> {
    const directive = this.rootAt > 0 && /^%/m.test(text.slice(0, this.rootAt));
    const { names, anchored, merges, interpolates } = this;
    return { names, anchored, merges, interpolates, unusual: this.tagged || directive };
  }
}

function isBlank(ch: number): boolean {
  return ch === 0x20 || ch === 0x09;
}

/** A scalar written as itself: not an alias, a tag or an anchor before it, nor an empty value. */
function isScalarStart(ch: number): boolean {
  return (
    ch !== 0x2a && ch !== 0x26 && ch !== 0x21 && ch !== 0x0a && ch !== 0x0d && ch !== 0x23 && ch !== 0x2c && ch !== 0x7d && ch !== 0x5d
  );
}

/** The first character of a node from where js-yaml opens it: past spaces, line breaks and comments. */
function skipSpace(text: string, from: number, line: number, lineStart: number): { at: number; line: number; column: number } {
  let at = from;
  for (;;) {
    const ch = text.charCodeAt(at);
    if (ch === 0x20 || ch === 0x09) at++;
    else if (ch === 0x0a || (ch === 0x0d && text.charCodeAt(at + 1) !== 0x0a)) {
      at++;
      line++;
      lineStart = at;
    } else if (ch === 0x0d) at++;
    else if (ch === 0x23 /* # */ && (at === lineStart || isBlank(text.charCodeAt(at - 1)))) {
      while (at < text.length && text.charCodeAt(at) !== 0x0a && text.charCodeAt(at) !== 0x0d) at++;
    } else break;
  }
  return { at, line: line + 1, column: at - lineStart + 1 };
}
