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
  /** Where the first node that may read two ways starts (1:1 for a directive or a mapping on the `---` line). */
  unusualAt?: Position;
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
