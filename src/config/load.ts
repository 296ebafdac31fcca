/**
 * `loadConfig` (DESIGN §2 "Loading"): a config's files read once from their source, the root first and then
 * every file its `include:` globs name, each checked and all assembled by pure steps.
 */
import type { Diagnostic } from "../errors.ts";
import { type AssembledFile, assembleConfig, settle, sortByPosition } from "./assemble.ts";
import { type CheckOptions, checkFile, type FilePart, type Inherited } from "./check-file.ts";
import type { FileView } from "./file-view.ts";
import { readIncludes } from "./include.ts";
import type { Locator } from "./locate.ts";
import type { Normalized } from "./normalize.ts";
import { quoteSource } from "./quote-source.ts";
import { CONFIG_CAP_NOTE, configDigest, decodeText, MAX_CONFIG_BYTES, mib } from "./read-bounded.ts";
import { type ConfigSource, diskSource } from "./source.ts";
import type { LoadResult } from "./types.ts";

/** Options of {@link loadConfig}. */
export interface LoadOptions extends Omit<CheckOptions, "envFor"> {
  /** The root file's content, instead of reading `file` (which then only names it in diagnostics). */
  source?: string;
  /**
   * Where the root (unless `source` is given) and its included files are read: the disk when left out. A git
   * commit's files load the base of a change (DESIGN §3) by the same globs and checks.
   */
  files?: ConfigSource;
}

/**
 * Reads, validates and normalizes a config (DESIGN §2): each file parsed fast, `${VAR}` interpolated, checked
 * against the JSON Schema, normalized and put through the semantic rules, then the checks across files (a
 * domain listed twice, wherever). Every problem of one run is reported together; bad input (a missing file
 * included) never throws but comes back as `{ ok: false, errors }`, each error at its own `file:line:column`.
 */
export async function loadConfig(file: string, options: LoadOptions = {}): Promise<LoadResult> {
  return (await loadFiles(file, options)).result;
}

/**
 * One file as it was checked: what `export --update` edits, through its view's position-keeping parse.
 * @public The published `LoadedFile` extends it.
 */
export interface LoadedTree {
  view: FileView;
  locate: Locator;
  normalized: Normalized;
  /** Whether some value holds a `${VAR}`: the tree then depends on the environment it was loaded with. */
  interpolated: boolean;
  /** Some node carries an anchor or is an alias. */
  anchored: boolean;
  /** The file's values, `<<` merged and `${VAR}` interpolated: what `normalized` was made of. */
  data: Record<string, unknown>;
}

/**
 * One file of a loaded config, root first then each included file in the order read: what `export --update`
 * needs to edit the file that holds each entry. Not tagged internal: the published types of
 * `adopt/update-files` name it, and a consumer's strict type-check reads them.
 */
export interface LoadedFile extends LoadedTree {
  /** The path as diagnostics name it (an included file's joined to the root's folder). */
  file: string;
  text: string;
  /** The account of `accounts:` the file's entries belong to; `undefined` without accounts. */
  account: string | undefined;
  /**
   * Reads `text` as this same file of the config again, with `options`: the root without following its
   * includes, an included file under the root's defaults and policy. The diagnostics are this file's only.
   */
  reread(text: string, options: CheckOptions): LoadedTree | { diagnostics: Diagnostic[] };
}

/**
 * `loadConfig`, keeping every file it checked (`export --update` edits them).
 * @internal
 */
export async function loadFiles(file: string, options: LoadOptions & CheckOptions): Promise<{ result: LoadResult; files?: LoadedFile[] }> {
  const source = options.files ?? diskSource;
  const read = await readRoot(file, options.source, source);
  if ("error" in read) return { result: { ok: false, errors: [read.error], warnings: [] } };
  const root = checkFile(file, read.text, options, undefined);
  if (root.part === undefined) return { result: settle(root.diagnostics) };
  const found = await readIncludes(file, root.part.data, root.part.locate, source);
  // A glob is quoted as written: one that holds a ${VAR} never prints the value behind it (DESIGN §12).
  const includes = { ...found, diagnostics: quoteSource(found.diagnostics, root.part.interpolation) };
  // Past the bound, the files read so far are not checked: that is the work the bound is there to spare.
  if (includes.diagnostics.some((d) => d.code === "include.bound"))
    return { result: settle([...root.diagnostics, ...includes.diagnostics]) };
  const texts = {
    root: root.part,
    digest: read.digest,
    includes: includes.files,
    diagnostics: [...root.diagnostics, ...includes.diagnostics],
  };
  const { result, files } = assembleConfig(texts, options);
  return { result, ...(files ? { files: files.map(loadedFile) } : {}) };
}

/**
 * One file alone, as the root of a config whose `include:` is not followed: pure (`export --update` checks
 * the text it edits).
 * @internal
 */
export function loadText(
  file: string,
  text: string,
  options: CheckOptions,
): { result: LoadResult; files?: LoadedFile[]; includes?: boolean } {
  const root = checkFile(file, text, options, undefined);
  if (root.part === undefined) return { result: settle(root.diagnostics) };
  const texts = { root: root.part, digest: configDigest(Buffer.from(text, "utf8")), includes: [], diagnostics: root.diagnostics };
  const { result, files } = assembleConfig(texts, options);
  const { include } = root.part.data;
  return { result, includes: Array.isArray(include) && include.length > 0, ...(files ? { files: files.map(loadedFile) } : {}) };
}

function loadedFile({ part, account, inherited }: AssembledFile): LoadedFile {
  return { ...treeOf(part), file: part.file, text: part.text, account, reread: (text, again) => reread(part.file, text, again, inherited) };
}

function treeOf(part: FilePart): LoadedTree {
  const { view, locate, normalized, anchored, data } = part;
  return { view, locate, normalized, anchored, data, interpolated: part.interpolation.interpolated.length > 0 };
}

/** {@link LoadedFile.reread}: one file through the pipeline again, as the root or as an included file. */
function reread(
  file: string,
  text: string,
  options: CheckOptions,
  inherited: Inherited | undefined,
): LoadedTree | { diagnostics: Diagnostic[] } {
  const checked = checkFile(file, text, options, inherited);
  const errors = checked.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || checked.part === undefined) return { diagnostics: sortByPosition(errors) };
  return treeOf(checked.part);
}

async function readRoot(
  file: string,
  text: string | undefined,
  source: ConfigSource,
): Promise<{ text: string; digest: string } | { error: Diagnostic }> {
  const fail = (code: string, message: string) => ({
    error: { file, line: 0, column: 0, code, path: "", message, severity: "error" as const },
  });
  const bytes = text === undefined ? (await source.read([file], MAX_CONFIG_BYTES))[0] : Buffer.from(text, "utf8");
  if (typeof bytes === "string" || bytes === undefined) {
    const why = bytes ?? "not read";
    const hint =
      why === "no such file"
        ? `pass another path with -c/--config, or write one from the account: sitesync export --out ${file}`
        : "pass its path with -c/--config";
    // The file as a whole: line 0 prints no position (a missing file has no line 1).
    return fail("file.unreadable", `cannot read the config: ${why} (${hint})`);
  }
  if (bytes.length > MAX_CONFIG_BYTES) {
    return fail(
      "file.unreadable",
      `the config is ${mib(bytes.length)}, more than the ${mib(MAX_CONFIG_BYTES)} a config may be (${CONFIG_CAP_NOTE})`,
    );
  }
  const decoded = decodeText(bytes);
  if (typeof decoded !== "string") {
    const { line, column, why } = decoded;
    const message = `the config is not a UTF-8 text file: ${why}`;
    return { error: { file, line, column, code: "file.binary", path: "", message, severity: "error" } };
  }
  return { text: decoded, digest: configDigest(bytes) };
}
