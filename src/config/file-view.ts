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

export class FileView {
  #parsed: ParsedYaml | undefined;
  #locator: Locator | undefined;
  #lines: number[] | undefined;
  readonly locate: Locator;
  readonly file: string;
  readonly text: string;
  private readonly names: FastParse["names"];

  constructor(file: string, text: string, names: FastParse["names"] = { websites: [], projects: [] }) {
    this.file = file;
    this.text = text;
    this.names = names;
    this.locate = {
      value: (path) => this.name(path) ?? this.locator.value(path),
      key: (path) => this.locator.key(path),
      offset: (offset) => this.position(offset),
      range: (path) => this.locator.range(path),
    };
  }

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
      this.text.length > FAST_LOCATE_BYTES && !this.built
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
