import type { Document, LineCounter, Node } from "yaml";
import { yamlPackage } from "./yaml-package.ts";

/** A place in the config: object keys and list indexes, e.g. `["websites", 3, "privacy"]`. */
export type ConfigPath = readonly (string | number)[];

/** 1-based, like editors and `file:line:col`. */
interface Position {
  line: number;
  column: number;
}

/** Finds where a config path is written, for diagnostics and annotations. */
export interface Locator {
  /** Where the value at `path` starts; the closest written ancestor when the value is not in the file. */
  value(path: ConfigPath): Position;
  /** Where the key of `path` is written (its value for a list item). */
  key(path: ConfigPath): Position;
  /** The position of a character offset in the source. */
  offset(offset: number): Position;
  /** Where the scalar at `path` is written, as offsets, and whether plainly (no quotes, no block): `${VAR}` needs it. */
  range(path: ConfigPath): { start: number; end: number; plain: boolean } | undefined;
}

/** `["websites", 3, "privacy"]` → `websites[3].privacy`, the form every diagnostic uses. */
export function formatPath(path: ConfigPath): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else {
      const key = shortKey(segment);
      out += out === "" ? key : `.${key}`;
    }
  }
  return out;
}

/** A key as messages print it: a key of megabytes is shown by its start and its length, not printed whole. */
export function shortKey(key: string): string {
  return key.length > 80 ? `${key.slice(0, 60)}… (${key.length.toLocaleString("en")} characters)` : key;
}

/**
 * An ajv `instancePath` (JSON Pointer) → a config path. Segments under a list become numbers, so that the
 * path finds YAML sequence items too.
 */
export function pointerToPath(pointer: string, data: unknown): (string | number)[] {
  if (pointer === "") return [];
  const path: (string | number)[] = [];
  let current = data;
  for (const raw of pointer.slice(1).split("/")) {
    const segment = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(current)) {
      path.push(Number(segment));
      current = current[Number(segment)];
    } else {
      path.push(segment);
      current = isRecord(current) ? current[segment] : undefined;
    }
  }
  return path;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The key of a YAML pair as the plain string it stands for (`toJS` turns every key into a string); a `<<`
 * merge key, which `yaml` holds as a symbol, as `<<`.
 */
export function keyName(key: unknown): string | undefined {
  if (!yamlPackage().isScalar(key)) return undefined;
  return typeof key.value === "symbol" ? (key.value.description ?? "") : String(key.value);
}

export function createLocator(doc: Document, lineCounter: LineCounter): Locator {
  const { isMap, isNode, isScalar, isSeq, Scalar } = yamlPackage();
  const offset = (at: number): Position => {
    const { line, col } = lineCounter.linePos(at);
    return { line, column: col };
  };
  // By hand rather than `doc.getIn`, which cannot name a `<<` merge key: `yaml` holds it as a symbol.
  const nodeAt = (path: ConfigPath): Node | undefined => {
    let node: unknown = doc.contents;
    for (const segment of path) {
      if (isSeq(node) && typeof segment === "number") node = node.items[segment];
      else if (isMap(node)) node = node.items.find((item) => keyName(item.key) === String(segment))?.value;
      else return undefined;
    }
    return isNode(node) ? node : undefined;
  };
  const keyNode = (path: ConfigPath): Node | undefined => {
    const parent = nodeAt(path.slice(0, -1));
    const last = path.at(-1);
    if (!isMap(parent) || typeof last !== "string") return undefined;
    const pair = parent.items.find((item) => keyName(item.key) === last);
    return isNode(pair?.key) ? pair.key : undefined;
  };
  const value = (path: ConfigPath): Position => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = nodeAt(path.slice(0, depth));
      if (!node?.range) continue;
      // `privacy:` with nothing after it is an empty scalar placed at the line's end: point at the key.
      const empty = isScalar(node) && node.value === null && node.source === "";
      const at = empty ? (keyNode(path.slice(0, depth)) ?? node) : node;
      return offset(at.range?.[0] ?? node.range[0]);
    }
    return { line: 1, column: 1 };
  };
  const key = (path: ConfigPath): Position => {
    const node = keyNode(path);
    return node?.range ? offset(node.range[0]) : value(path);
  };
  const range = (path: ConfigPath) => {
    const node = nodeAt(path);
    if (!isScalar(node) || !node.range) return undefined;
    return { start: node.range[0], end: node.range[1], plain: node.type === Scalar.PLAIN };
  };
  return { value, key, offset, range };
}

/** Where the first key of yaml's mapping at `path` starts that is not one of `keys` (a list or a mapping as a key is none). */
export function keyOutside(doc: Document, path: ConfigPath, keys: ReadonlySet<string>): number | undefined {
  const { isMap, isNode, isScalar } = yamlPackage();
  const node = path.length === 0 ? doc.contents : doc.getIn(path, true);
  if (!isMap(node)) return undefined;
  // A null key is "" to yaml's values (and "null" to js-yaml's).
  const name = (key: unknown) => (isScalar(key) && key.value === null ? "" : keyName(key));
  const odd = node.items.find((item) => !keys.has(name(item.key) ?? "\u0000"));
  return isNode(odd?.key) ? odd.key.range?.[0] : undefined;
}
