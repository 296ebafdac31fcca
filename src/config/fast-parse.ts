/** What the fast parse of a config file (fast-yaml.ts) gives back, and the error its listener stops with at a bound. */
import type { SourcePos } from "../model/website.ts";

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
   * Something js-yaml and `yaml` may read differently (a tag, a directive, an odd key, a node over several
   * lines that `yaml` may refuse): the file's values are compared with the position-keeping parse before use.
   */
  unusual: boolean;
  /** Where the first node that may read two ways starts (1:1 for a directive or a mapping on the `---` line), and why. */
  unusualAt?: Position & { why: TwoWays };
  /**
   * Some string holds `${` or some key may be `password`: interpolation has work to do. Without either (an
   * export), nothing is read from the environment and no password is written, so its walk is skipped.
   */
  interpolates: boolean;
  /** The nodes the file holds, aliases counted as what they expand to. */
  nodes: number;
}

export type Position = Pick<SourcePos, "line" | "column">;

/** Thrown by the parse's listener where a bound is crossed: where, and the words of the diagnostic. */
export class Stop extends Error {
  readonly at: { line: number; column: number };
  readonly bound: { code: string; message: string };
  constructor(at: { line: number; column: number }, bound: { code: string; message: string }) {
    super(bound.message);
    this.at = { line: at.line, column: at.column };
    this.bound = bound;
  }
}

/**
 * What js-yaml and `yaml` may read differently, in words: the file is then compared with `yaml` before use,
 * and one too large to compare is refused, naming the one that made it so.
 */
export const TWO_WAYS = {
  key: "a key that is empty, a list or a mapping, or over 1,024 characters, or an anchor before a mapping's first key",
  tag: "a tag such as !!float or !!binary",
  hash: "a # right after a quote or a bracket (a comment needs a space before it)",
  lines: "a quoted value or [list] over several lines, or a | or > block with an indentation number such as |2",
  list: "an empty list item (a - alone) or a [key: value] item",
  valueless: "a key without a value (? key, or {a, b})",
  anchor: "an anchor named twice",
  head: "a %YAML directive, a mapping on the --- line, or a --- with no space after it",
  tab: "a blank line holding a tab inside a value over several lines",
  end: "a |+ block and a last line of blanks with no line break after it",
} as const;

export type TwoWays = keyof typeof TWO_WAYS;
