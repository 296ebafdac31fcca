/**
 * The fast parse of a config file (DESIGN §2 "Loading", §10): js-yaml without position tracking, bounded
 * while it parses (DESIGN §12), values read as the `yaml` package reads them. A listener sees each node open
 * and close: it counts nodes and depth, sizes what aliases expand to, notes what only the position-keeping
 * parse reads the same way (tags, directives, anchors), and keeps the one position every load needs: where
 * each website's domain and each project's name is written.
 */
import { type EventType, load, type State } from "js-yaml";
import { CORE_SCHEMA_AS_YAML_READS } from "./core-schema.ts";
import { type FastFailure, type FastParse, type Position, Stop, type TwoWays } from "./fast-parse.ts";
import * as scan from "./yaml-scan.ts";

/** The deepest nesting read: a config needs 6 levels (accounts, a name, policy, protect, an item). */
export const MAX_DEPTH = 32;
/**
 * The most nodes one file may hold, aliases counted as the copies they stand for: the export of a
 * 100,000-website account holds about 1.4 million, and one at the byte cap 6.5 million (bench/RESULTS.md).
 */
const MAX_NODES = 8_000_000;

export type { FastFailure, FastParse, Position } from "./fast-parse.ts";

/** A mapping's keys: some `<<` merges; some key each parser reads its own way. */
const KEY_MERGES = 1;
const KEY_UNUSUAL = 2;

/** Parses `text` fast; never throws. */
export function parseFast(text: string): FastParse | FastFailure {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const watch = new Watch(text, bom);
  try {
    // The depth js-yaml stops at itself is past ours: the listener words it first.
    const options = { schema: CORE_SCHEMA_AS_YAML_READS, listener: watch.listener, maxDepth: MAX_DEPTH + 2 } as Parameters<typeof load>[1];
    const value = load(text, options);
    return { ok: true, value: value ?? null, ...watch.result(text) };
  } catch (cause) {
    if (cause instanceof Stop) return { ok: false, ...cause.at, bound: cause.bound };
    const mark = (cause as { mark?: { line: number; column: number } }).mark;
    const reason = (cause as { reason?: string }).reason ?? String(cause);
    return { ok: false, line: (mark?.line ?? 0) + 1, column: (mark?.column ?? 0) + 1 + (mark?.line === 0 ? bom : 0), reason };
  }
}

/** js-yaml's state as its listener sees it: `anchor` is there, though not in its published types. */
type ParseState = State & { anchor: string | null };

/**
 * What the listener keeps while js-yaml parses: a 100,000-website file opens 1.4 million nodes, so each depth
 * has a slot in typed arrays, reused, and a node's first character is looked for only where it matters (a
 * name's position, a quoted `<<`, a tag in a file that holds a `!` at all, a `#` after a quote in a file with one).
 */
class Watch {
  readonly listener: (event: EventType, state: State) => void;
  private depth = 0;
  nodes = 0;
  /** Per depth: where js-yaml opened the node (before spaces and comments), its line (0-based) and line start. */
  private readonly open = new Int32Array(MAX_DEPTH + 1);
  private readonly line = new Int32Array(MAX_DEPTH + 1);
  private readonly lineStart = new Int32Array(MAX_DEPTH + 1);
  /** Per depth: the children read so far (a mapping's even ones are keys) and the nodes below, aliases expanded. */
  private readonly children = new Int32Array(MAX_DEPTH + 1);
  private readonly size = new Float64Array(MAX_DEPTH + 1);
  /** Per depth: the last key read, and the position of this mapping's name (an item of `websites` or `projects`). */
  private readonly key: unknown[] = new Array(MAX_DEPTH + 1).fill(undefined);
  /** Per depth: what the mapping's keys need (`KEY_MERGES`, `KEY_UNUSUAL`), told once the node proves a mapping. */
  private readonly keyed = new Uint8Array(MAX_DEPTH + 1);
  private readonly name: (Position | undefined)[] = new Array(MAX_DEPTH + 1).fill(undefined);
  /** The names of the items of the root's `websites` or `projects` list while it is read, and the key that says one. */
  private items: (Position | undefined)[] | undefined;
  private itemKey: "domain" | "project" | undefined;
  private readonly sizes = new WeakMap<object, number>();
  /** The anchors named so far: js-yaml and `yaml` may resolve an alias of a name given twice differently. */
  private readonly anchorNames = new Set<string>();
  private readonly text: string;
  private readonly bom: number;
  private readonly has: scan.TextHolds;
  /**
   * The next `${` of the text that string nodes read so far have not passed, -1 once none is left. With a
   * backslash in the file (`"\x24{VAR}"` is `${VAR}`), every string is searched.
   */
  private dollar: number;
  /** The node closed last: its depth, anchor and value. */
  private lastDepth = -1;
  private lastAnchor: string | null = null;
  private lastResult: unknown;
  anchored = false;
  merges = false;
  /** Where the first node that may read two ways starts: once set, the file is compared with `yaml`. */
  unusualAt: (Position & { why: TwoWays }) | undefined;
  interpolates = false;
  rootAt = -1;
  names = { websites: [] as (Position | undefined)[], projects: [] as (Position | undefined)[] };

  constructor(text: string, bom: number) {
    this.text = text;
    this.bom = bom;
    this.has = scan.textHolds(text);
    this.dollar = text.indexOf("${");
    this.listener = (event, state) => (event === "open" ? this.opened(state) : this.closed(state as ParseState));
  }

  private opened(state: State): void {
    if (++this.nodes > MAX_NODES) this.stop(state, "yaml.nodes", `the file holds more than ${MAX_NODES.toLocaleString("en")} YAML nodes`);
    const d = this.depth;
    if (d >= MAX_DEPTH) this.stop(state, "yaml.depth", `the YAML nests deeper than ${MAX_DEPTH} levels (a config needs fewer than 10)`);
    this.depth = d + 1;
    this.open[d] = state.position;
    this.line[d] = state.line;
    this.lineStart[d] = state.lineStart;
    this.children[d] = 0;
    this.size[d] = 0;
    this.key[d] = undefined;
    this.keyed[d] = 0;
    this.name[d] = undefined;
    if (this.rootAt === -1) this.rootAt = this.start(d).at;
    // The value of the root's `websites` or `projects`: its items' names are kept.
    if (d === 1) {
      const key = this.key[0];
      const listed = ((this.children[0] as number) & 1) === 1 && (key === "websites" || key === "projects");
      this.items = listed ? [] : undefined;
      this.itemKey = listed ? (key === "websites" ? "domain" : "project") : undefined;
    }
  }

  private closed(state: ParseState): void {
    const d = --this.depth;
    const result = state.result;
    if (this.keyed[d] !== 0) this.settleKeys(d, state);
    const isAlias = state.kind === null && result !== null;
    if (isAlias || state.anchor !== null) this.anchored = true;
    // js-yaml closes a scalar twice, its candidate key then the node around it, both with its anchor: one name.
    const wrapper = this.wrapsLast(d, state);
    if (state.anchor !== null && !isAlias && !wrapper) this.anchorNamed(d, state.anchor);
    this.lastDepth = d;
    this.lastAnchor = state.anchor;
    this.lastResult = result;
    if (this.has.tags && this.properties(d).tag) this.flag(d, "tag");
    if (this.has.hashAfter && scan.hashRightAfter(this.text, state.position + this.bom)) this.flag(d, "hash");
    if (state.line !== this.line[d] && this.unusualAt === undefined) this.multiLine(d, state, state.position + this.bom);
    // js-yaml opens no node for the mapping of `[key: value]` (nor for an empty item): its key and value are the
    // list's own children, where no key check sees them. Such a list is compared with yaml before use.
    if (state.kind === "sequence" && Array.isArray(result) && this.children[d] !== result.length) this.flagList(d, state.position);
    // Nor for the value of a key that has none (`? x-note`, `{a, b}`): the keys after it would be read as values.
    else if (this.has.valueless && state.kind === "mapping" && !wrapper && this.children[d] !== 2 * Object.keys(result as object).length) {
      this.flag(d, "valueless");
    }
    const size = this.has.aliasing ? this.sized(d, state, isAlias) : 0;
    if (d === 0) return;
    const p = d - 1;
    if (size > 0) this.size[p] = (this.size[p] as number) + size;
    const index = this.children[p] as number;
    this.children[p] = index + 1;
    if (!this.interpolates && typeof result === "string") {
      this.interpolates = this.holdsDollar(d, state.position, result) || ((index & 1) === 0 && result === "password");
    }
    if ((index & 1) === 0) {
      this.key[p] = result;
      // A null key is "" to `yaml` and "null" to js-yaml, and each writes a list or a mapping as a key its own
      // way (`[a]` is "a" to js-yaml, "[ a ]" to yaml): such a file is compared with yaml before use.
      // So is an anchor before a mapping's first key (`policy: &p prune: true`: the key's to `yaml`, which refuses
      // it there, the mapping's to js-yaml), and a key over 1,024 characters (opened past its comments): `yaml` refuses it.
      const odd =
        (index === 0 && state.anchor !== null) || scan.longKey(this.text, (this.open[d] as number) + this.bom, state.position + this.bom);
      const keyed = (result === "<<" ? this.mergeKey(d) : typeof result === "object" ? KEY_UNUSUAL : 0) | (odd ? KEY_UNUSUAL : 0);
      if (keyed !== 0) this.keyed[p] = (this.keyed[p] as number) | keyed;
    } else if (p === 2 && this.key[p] === this.itemKey && this.itemKey !== undefined && typeof result === "string") {
      // An item's name: `domain` of a website, `project` of a project.
      const at = this.start(d);
      if (scan.isScalarStart(this.text.charCodeAt(at.at))) this.name[p] = { line: at.line, column: at.column };
    }
    if (p === 1) this.items?.push(this.name[d]);
    else if (p === 0 && (index & 1) === 1 && this.items) {
      // An empty item opens no node: the names would shift, so the list's are left to the locator.
      if (Array.isArray(result) && result.length === this.items.length) this.names[this.key[0] as "websites" | "projects"] = this.items;
      this.items = undefined;
    }
  }

  /**
   * Whether a string holds `${`. Strings close in text order, so a `${` before this one's start (an export's
   * header names `${VARIABLE}`) is passed once, not searched by each of 1.4 million nodes; an alias needs none.
   */
  private holdsDollar(d: number, end: number, result: string): boolean {
    if (this.has.escapes) return result.includes("${");
    if (this.dollar === -1) return false;
    const start = this.open[d] as number;
    while (this.dollar !== -1 && this.dollar < start) this.dollar = this.text.indexOf("${", this.dollar + 1);
    return this.dollar !== -1 && this.dollar < end && result.includes("${");
  }

  /**
   * An anchor named again inside its own node (`&p [a, &p b]`) is the outer node to js-yaml, which names a
   * node once it is read, and the inner one to `yaml`: a file that names one twice is compared before use.
   */
  private anchorNamed(d: number, name: string): void {
    if (this.anchorNames.has(name)) this.flag(d, "anchor");
    else this.anchorNames.add(name);
  }

  /** Whether the node closing at depth `d` is js-yaml's wrapper of the one child that closed last, the same node. */
  private wrapsLast(d: number, state: ParseState): boolean {
    return this.children[d] === 1 && this.lastDepth === d + 1 && this.lastAnchor === state.anchor && this.lastResult === state.result;
  }

  /** The node at depth `d` may read two ways: the file is compared with `yaml`, and the first such node kept. */
  private flag(d: number, why: TwoWays): void {
    if (this.unusualAt !== undefined) return;
    const { line, column } = this.start(d);
    this.unusualAt = { line, column, why };
  }

  /**
   * A list whose children are not its items is flagged at its first empty item (`-` alone on its line, nothing
   * indented under it) when it has one, where a person would look; else at its start (a `[key: value]` item).
   */
  private flagList(d: number, end: number): void {
    const empty = this.unusualAt === undefined ? scan.emptyItem(this.text, this.start(d), end + this.bom) : undefined;
    if (empty === undefined) this.flag(d, "list");
    else this.unusualAt = { line: empty.line, column: empty.column, why: "list" };
  }

  /** A node over several lines that `yaml` may refuse where js-yaml reads it: such a file is compared with it. */
  private multiLine(d: number, state: State, end: number): void {
    const start = this.start(d);
    if (scan.quotedOrFlowOverLines(this.text, start, end, state.kind)) this.flag(d, "lines");
    else if (this.has.tabs && state.kind === "scalar" && scan.tabBlankLine(this.text, start.at, end)) this.flag(d, "tab");
  }

  /** The nodes a node stands for, aliases expanded; crossing the bound at an alias stops the parse there. */
  private sized(d: number, state: ParseState, isAlias: boolean): number {
    const result = state.result;
    const size = isAlias ? (this.sizes.get(result as object) ?? 1) : (this.size[d] as number) + 1;
    if (isAlias) {
      this.nodes += size - 1;
      if (this.nodes > MAX_NODES) {
        throw new Stop(this.start(d), {
          code: "yaml.aliases",
          message: `the aliases expand the file past ${MAX_NODES.toLocaleString("en")} YAML nodes`,
        });
      }
    }
    if (state.anchor !== null && typeof result === "object" && result !== null) this.sizes.set(result, size);
    return size;
  }

  /**
   * A `<<` merges only written plainly: quoted (after an anchor or a tag too) or an alias of a "<<" written
   * elsewhere, it is a plain key to `yaml`, so such a file is compared with it before use.
   */
  private mergeKey(d: number): number {
    const first = this.text.charCodeAt(this.properties(d).at);
    return first === 0x22 || first === 0x27 || first === 0x2a /* * */ ? KEY_UNUSUAL : KEY_MERGES;
  }

  /**
   * The keys of the node at depth `d` are told once it closes as a mapping: a sequence's even items are no
   * keys. Nor is the one child of a node js-yaml read as a block mapping's first key (`v: &m <<`, an alias
   * item) when no `:` followed: that node closes with its child's value, as what the child was.
   */
  private settleKeys(d: number, state: State): void {
    const keyed = this.keyed[d] as number;
    this.keyed[d] = 0;
    if (state.kind !== "mapping" || (this.children[d] === 1 && state.result === this.key[d])) return;
    if (keyed & KEY_MERGES) this.merges = true;
    if (keyed & KEY_UNUSUAL) this.flag(d, "key");
  }

  /** Past the anchor and the tag of the node at depth `d`, in either order: where its content starts, and whether it has a tag. */
  private properties(d: number): { at: number; tag: boolean } {
    return scan.pastProperties(this.text, this.start(d));
  }

  /** Where the node at depth `d` starts; yaml counts a byte order mark as a column of the first line. */
  private start(d: number): { at: number; line: number; column: number } {
    const line = this.line[d] as number;
    const lineStart = line === 0 ? 0 : (this.lineStart[d] as number) + this.bom;
    return scan.skipSpace(this.text, (this.open[d] as number) + this.bom, line, lineStart);
  }

  private stop(state: State, code: string, message: string): never {
    const at = { line: state.line + 1, column: state.position - state.lineStart + 1 + (state.line === 0 ? this.bom : 0) };
    throw new Stop(at, { code, message });
  }

  result(text: string): Omit<FastParse, "ok" | "value"> {
    const { names, anchored, merges, interpolates, nodes } = this;
    const unusualAt = this.unusualAt ?? scan.wholeText(text, this.rootAt);
    return { names, anchored, merges, interpolates, nodes, unusual: unusualAt !== undefined, ...(unusualAt ? { unusualAt } : {}) };
  }
}
