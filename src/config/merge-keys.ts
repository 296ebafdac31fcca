/**
 * `<<` merge keys (DESIGN §2: anchors can share settings), applied after `${VAR}` interpolation as `yaml`'s
 * `merge: true` applies them in `toJS()`: each mapping a `<<` names (or each of a list, earlier first) adds
 * the keys the mapping does not set itself; keys written in the mapping win wherever they stand.
 */
import { isRecord } from "./locate.ts";

/** A `<<` whose value is not a mapping or a list of mappings: where it is. */
export class MergeError extends Error {
  readonly path: (string | number)[];
  constructor(path: (string | number)[]) {
    super("a << merge takes a mapping or a list of mappings (an alias of one)");
    this.path = path;
  }
}

/** `value` with every merge applied; shared nodes (aliases) stay shared. Throws a `MergeError`. */
export function resolveMerges(value: unknown): unknown {
  const done = new Map<object, unknown>();
  const visit = (node: unknown, path: (string | number)[]): unknown => {
    if (typeof node !== "object" || node === null) return node;
    const known = done.get(node);
    if (known !== undefined) return known;
    if (Array.isArray(node)) {
      const items: unknown[] = [];
      done.set(node, items);
      for (const [index, item] of node.entries()) items.push(visit(item, [...path, index]));
      return items;
    }
    const map: Record<string, unknown> = {};
    done.set(node, map);
    for (const [key, item] of Object.entries(node)) {
      if (key !== "<<") {
        set(map, key, visit(item, [...path, key]));
        continue;
      }
      for (const source of Array.isArray(item) ? item : [item]) {
        const merged = visit(source, [...path, key]);
        if (!isRecord(merged)) throw new MergeError([...path, key]);
        for (const [name, inherited] of Object.entries(merged)) if (!Object.hasOwn(map, name)) set(map, name, inherited);
      }
    }
    return map;
  };
  return visit(value, []);
}

/** A key set as data, `__proto__` included (as `yaml` sets it). */
function set(map: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
}
