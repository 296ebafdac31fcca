/**
 * Where things are written in one file (DESIGN §2 "Loading"): the names of websites and projects from the fast
 * parse, which every load needs; any other position from the position-keeping `yaml` Document of the file,
 * parsed the first time one is asked (a problem to point at, an edit to make) and never otherwise. In a file
 * past `FAST_LOCATE_BYTES` a js-yaml pass finds them instead: that Document would not fit a 1 GB heap.
 */
import type { Document } from "yaml";
import { lastAtMost } from "../model/sorted.ts";
import { fastLocator } from "./fast-locate.ts";
import type { FastParse, Position } from "./fast-yaml.ts";
import { type ConfigPath, createLocator, type Locator } from "./locate.ts";
import { type ParsedYaml, parseYaml } from "./parse-yaml.ts";

/** The size past which positions come from js-yaml (`fastLocator`): the Document of 4 MiB holds about 300 MB. */
export const FAST_LOCATE_BYTES = 4 * 2 ** 20;
/** And the nodes: a 3 MB list of 1.5 million numbers would make a Document past a 1 GB heap. */
export const FAST_LOCATE_NODES = 500_000;

/**
 * How a file past FAST_LOCATE_BYTES finds positions while it is checked: `record` notes each path asked (and
 * answers 1:1), `only` indexes just those paths (checkFile checks such a file twice when it has problems).
 */
export type LargeFilePositions = { record: ConfigPath[] } | { only: readonly ConfigPath[] };

export class FileView {
  #parsed: ParsedYaml | undefined;
  #locator: Locator | undefined;
  #lines: number[] | undefined;
  #record: ConfigPath[] | undefined;
  #large: boolean;
  #only: { paths: Set<string>; locator: () => Locator } | undefined;
  readonly locate: Locator;
  readonly file: string;
  readonly text: string;
  private readonly names: FastParse["names"];

  constructor(file: string, text: string, names: FastParse["names"] = { websites: [], projects: [] }, large?: LargeFilePositions) {
    this.file = file;
    this.text = text;
    this.names = names;
    this.#large = large !== undefined;
    if (large && "record" in large) this.#record = large.record;
    if (large && "only" in large) this.#only = this.onlyIndex(large.only);
    this.locate = {
      value: (path) => this.name(path) ?? this.locatorOf(path).value(path),
      key: (path) => this.locatorOf(path).key(path),
      offset: (offset) => this.position(offset),
      range: (path) => this.locatorOf(path).range(path),
    };
  }

  /** Ends the recording: a position asked from now on is found. */
  stopRecording(): void {
    this.#record = undefined;
  }

  /** The locator of one path: noted while recording, from the index of the paths asked when it is one of them. */
  private locatorOf(path: ConfigPath): Locator {
    if (this.#record) {
      this.#record.push(path);
      return this.recorded;
    }
    return this.#only?.paths.has(JSON.stringify(path)) ? this.#only.locator() : this.locator;
  }

  private onlyIndex(paths: readonly ConfigPath[]): { paths: Set<string>; locator: () => Locator } {
    let locator: Locator | undefined;
    const make = () => fastLocator(this.text, (offset) => this.position(offset), paths);
    return { paths: new Set(paths.map((path) => JSON.stringify(path))), locator: () => (locator ??= make()) };
  }

  /** While recording: every path is at 1:1, and has no range. */
  private readonly recorded: Locator = {
    value: () => ({ line: 1, column: 1 }),
    key: () => ({ line: 1, column: 1 }),
    offset: (offset) => this.position(offset),
    range: () => undefined,
  };

  /** The file parsed with positions: built on first use. */
  get parsed(): ParsedYaml {
    this.#parsed ??= parseYaml(this.file, this.text);
    return this.#parsed;
  }

  get doc(): Document {
    return this.parsed.doc;
  }

  /** Whether the position-keeping parse was built (test/validate/position-parser.test.ts: a valid config never loads it). */
  get built(): boolean {
    return this.#parsed !== undefined;
  }

  private get locator(): Locator {
    this.#locator ??=
      (this.#large || this.text.length > FAST_LOCATE_BYTES) && !this.built
        ? fastLocator(this.text, (offset) => this.position(offset))
        : createLocator(this.parsed.doc, this.parsed.lineCounter);
    return this.#locator;
  }

  private name(path: ConfigPath): Position | undefined {
    const [list, index, key] = path;
    if (path.length !== 3 || typeof index !== "number") return undefined;
    if (list === "websites" && key === "domain") return this.names.websites[index];
    if (list === "projects" && key === "project") return this.names.projects[index];
    return undefined;
  }

  /** Line and column of an offset, from the line starts of the text (found once), as `yaml`'s LineCounter says them. */
  private position(offset: number): Position {
    if (this.#lines === undefined) {
      const lines = [0];
      for (let at = this.text.indexOf("\n"); at !== -1; at = this.text.indexOf("\n", at + 1)) lines.push(at + 1);
      this.#lines = lines;
    }
    const line = lastAtMost(this.#lines, offset);
    return { line: line + 1, column: offset - (this.#lines[line] as number) + 1 };
  }
}
