/**
 * Positions in a large file without `yaml`'s Document (DESIGN §12): the Document of a 15 MB config holds a
 * gigabyte, so one typo in it ran a 1 GB heap out of memory. js-yaml reads the file again, and a listener keeps
 * where each node is written, in a tree shaped like the file's value: a few bytes a node.
 */
import { type EventType, load, type State } from "js-yaml";
import { CORE_SCHEMA_AS_YAML_READS } from "./core-schema.ts";
import type { ConfigPath, Locator } from "./locate.ts";
import { isBlank, pastProperties, skipSpace } from "./yaml-scan.ts";

/** Where one node is written: its content (past spaces, comments, an anchor and a tag), its key's start, its items. */
interface Spot {
  at: number;
  end: number;
  keyAt?: number;
  children?: Map<string, Spot> | Spot[];
}

interface Frame {
  open: number;
  /** The children read so far, with their values: a mapping's alternate key and value (kept where wanted). */
  read: { result: unknown; spot: Spot }[];
  /** Its path, when its children are kept: on the way to a wanted path (or every node, without `wanted`). */
  path: ConfigPath | undefined;
}

/**
 * A Locator of `text` (the fast parse read it: its bounds hold), each position from `position` of an offset.
 * With `wanted`, only the nodes on the way to those paths are kept: an index of every node of a 64 MiB file
 * beside its values took more than a 1 GB heap (DESIGN §12).
 */
export function fastLocator(text: string, position: Locator["offset"], wanted?: readonly ConfigPath[]): Locator {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const root = indexOf(text, bom, wanted && prefixesOf(wanted));
  const spotAt = (path: ConfigPath): { spot: Spot | undefined; depth: number } => {
    let spot = root;
    for (const [depth, segment] of path.entries()) {
      const children = spot?.children;
      const next = Array.isArray(children) ? children[segment as number] : children?.get(String(segment));
      if (next === undefined) return { spot, depth };
      spot = next;
    }
    return { spot, depth: path.length };
  };
  const value = (path: ConfigPath) => {
    const spot = spotAt(path).spot;
    // An empty file (comments only) has no node: `yaml`'s locator says 1:1.
    if (spot === root && spot?.at === spot?.end) return position(0);
    // `privacy:` with nothing after it: the key is the place to point at, as `yaml`'s locator does.
    const empty = spot !== undefined && spot.keyAt !== undefined && spot.end === spot.at;
    return position((empty ? spot.keyAt : spot?.at) ?? 0);
  };
  return {
    value,
    key: (path) => {
      const { spot, depth } = spotAt(path);
      return depth === path.length && spot?.keyAt !== undefined ? position(spot.keyAt) : value(path);
    },
    offset: position,
    range: (path) => {
      const { spot, depth } = spotAt(path);
      if (spot === undefined || depth < path.length || spot.children !== undefined) return undefined;
      if (spot === root && spot.at === spot.end) return undefined;
      const first = text.charCodeAt(spot.at);
      return { start: spot.at, end: spot.end, plain: !isQuoteOrBlock(first) };
    },
  };
}

/** Every path on the way to one of `paths`, the root's included, as `pathKey` writes them. */
function prefixesOf(paths: readonly ConfigPath[]): Set<string> {
  const prefixes = new Set([pathKey([])]);
  for (const path of paths) for (let n = 1; n <= path.length; n++) prefixes.add(pathKey(path.slice(0, n)));
  return prefixes;
}

function pathKey(path: ConfigPath): string {
  return JSON.stringify(path);
}

function indexOf(text: string, bom: number, wanted: Set<string> | undefined): Spot | undefined {
  const stack: Frame[] = [];
  let root: Spot | undefined;
  const listener = (event: EventType, state: State) => {
    if (event === "open") return void stack.push({ open: state.position + bom, read: [], path: pathOf(stack.at(-1), wanted) });
    const frame = stack.pop() as Frame;
    const parent = stack.at(-1);
    if (parent === undefined) root = spotOf(text, frame, state, bom);
    else if (parent.path !== undefined) parent.read.push({ result: state.result, spot: spotOf(text, frame, state, bom) });
  };
  load(text, { schema: CORE_SCHEMA_AS_YAML_READS, listener } as Parameters<typeof load>[1]);
  return root;
}

/**
 * The path of a node that opens under `parent`, when its children are to be kept (every node's, without
 * `wanted`). Whether the parent is a mapping or a list is told only once it closes, so either reading may be
 * the one: the value of its last key, or its next item. A first child is kept as its parent is: js-yaml may
 * read a node first as a mapping's candidate key, then close the parent as that same node.
 */
function pathOf(parent: Frame | undefined, wanted: Set<string> | undefined): ConfigPath | undefined {
  if (parent === undefined || wanted === undefined) return ALL;
  const at = parent.path;
  if (at === undefined) return undefined;
  const read = parent.read.length;
  const key = read % 2 === 1 ? parent.read[read - 1]?.result : undefined;
  if (typeof key === "string" || typeof key === "number") {
    const asValue = [...at, String(key)];
    if (wanted.has(pathKey(asValue))) return asValue;
  }
  const asItem = [...at, read];
  if (wanted.has(pathKey(asItem))) return asItem;
  return read === 0 ? at : undefined;
}

/** The path every node has in a full index: kept, and never looked at. */
const ALL: ConfigPath = [];

/**
 * The spot of a node that closes. js-yaml reads a node that might start a block mapping as that mapping's
 * first key; when no `:` follows, the node closes with its one child's value, and is that child.
 */
function spotOf(text: string, frame: Frame, state: State, bom: number): Spot {
  const only = frame.read.length === 1 ? frame.read[0] : undefined;
  if (only && only.result === state.result) return only.spot;
  // js-yaml may have read the spaces after a scalar (a block scalar keeps its last line break, as in `yaml`);
  // an empty node is where js-yaml stood, as `yaml` places it.
  const start = contentAt(text, frame.open);
  let end = state.position + bom;
  const block = text.charCodeAt(start) === 0x7c || text.charCodeAt(start) === 0x3e;
  while (end > frame.open && (block ? isBlank(text.charCodeAt(end - 1)) : isSpace(text.charCodeAt(end - 1)))) end--;
  const spot: Spot = { at: Math.min(start, end), end };
  // js-yaml opens no node for an empty item (`-` alone), a key with no value (`{b, c: 1}`) or the mapping of
  // `[key: value]`: their children would shift, so such a node's are left out and point at the node itself.
  const result = state.result as object;
  const size = Array.isArray(result) ? result.length : 2 * Object.keys(result ?? {}).length;
  if (frame.read.length !== size) return spot;
  if (state.kind === "sequence") spot.children = frame.read.map((child) => child.spot);
  else if (state.kind === "mapping") {
    const children = new Map<string, Spot>();
    for (let i = 0; i + 1 < frame.read.length; i += 2) {
      const key = frame.read[i] as Frame["read"][number];
      const item = frame.read[i + 1] as Frame["read"][number];
      children.set(String(key.result), { ...item.spot, keyAt: key.spot.at });
    }
    spot.children = children;
  }
  return spot;
}

/** The first character of a node's content from where js-yaml opens it: past spaces, line breaks, comments, an anchor and a tag. */
function contentAt(text: string, from: number): number {
  // Only whether `from` starts its line matters (a `#` there is a comment): searching back for the line's
  // start made each node of a one-line file of 5 MB (minified JSON) cost its line, 7 minutes in all.
  const lineStart = from === 0 || text.charCodeAt(from - 1) === 0x0a ? from : -1;
  return pastProperties(text, skipSpace(text, from, 0, lineStart)).at;
}

function isSpace(ch: number): boolean {
  return isBlank(ch) || ch === 0x0a || ch === 0x0d;
}

function isQuoteOrBlock(ch: number): boolean {
  return ch === 0x22 || ch === 0x27 || ch === 0x7c || ch === 0x3e;
}
