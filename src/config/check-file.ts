/**
 * One file of a config, checked (DESIGN §2): the fast parse → `${VAR}` interpolation → `<<` merges → JSON
 * Schema → normalization → semantic rules. Pure: the file's text in, its diagnostics and what it says out.
 * Positions come from the file's view, which parses with positions only what it must point at.
 */
import { isDeepStrictEqual } from "node:util";
import type { Diagnostic } from "../errors.ts";
import { TWO_WAYS } from "./fast-parse.ts";
import { type FastFailure, type FastParse, parseFast } from "./fast-yaml.ts";
import { FAST_LOCATE_BYTES, FAST_LOCATE_NODES, FileView, type LargeFilePositions } from "./file-view.ts";
import type { Env } from "./interpolate.ts";
import { type DocumentInterpolation, interpolateDocument, noInterpolation, type UnsetEnv } from "./interpolate-document.ts";
import { type ConfigPath, formatPath, isRecord, keyOutside, type Locator } from "./locate.ts";
import { MergeError, resolveMerges } from "./merge-keys.ts";
import { type Normalized, normalize } from "./normalize.ts";
import { quoteSource } from "./quote-source.ts";
import { createRuleContext, RULES, runRules } from "./rules/index.ts";
import { MAX_FILE_PROBLEMS, validateSchema } from "./schema.ts";
import { unclosedAtEnd } from "./yaml-scan.ts";

/** How a file is checked: the environment and how an unset variable is reported. */
export interface CheckOptions {
  /** Variables for `${VAR}` interpolation; `process.env` when left out. */
  env?: Env;
  /** `warning`: an unset `${VAR}` is a note, not an error (`validate` without `--strict-env`). Default `error`. */
  unsetEnv?: UnsetEnv;
  /** Sees each value read from the environment the moment it is read: a secret for masking. */
  onSecret?: (value: string) => void;
  /** Picks the variables from the parsed file, before interpolation, instead of `env` (`export --update`). */
  envFor?: (data: unknown) => Env;
}

/** What an included file inherits from the root: its defaults (under the file's own) and its policy. */
export interface Inherited {
  defaults: unknown;
  policy: unknown;
}

/** One file of the config, checked: what it says, normalized, beside how it was read. */
export interface FilePart {
  file: string;
  text: string;
  view: FileView;
  data: Record<string, unknown>;
  normalized: Normalized;
  interpolation: DocumentInterpolation;
  locate: Locator;
  /** Some node carries an anchor or is an alias (`export --update` must then edit with care). */
  anchored: boolean;
}

/**
 * The pipeline of one file. An included file (`inherited` given) is checked against the included-file shape,
 * and normalized under the root's policy and its defaults (its own `defaults` over them). Only YAML that cannot
 * be read stops a file early; every other problem of the file is reported together.
 */
export function checkFile(
  file: string,
  text: string,
  options: CheckOptions,
  inherited: Inherited | undefined,
): { diagnostics: Diagnostic[]; part?: FilePart } {
  const stray = strayCarriageReturn(file, text);
  if (stray) return { diagnostics: [stray] };
  let fast: FastParse | undefined;
  {
    const parsed = parseFast(text);
    if (!parsed.ok) return { diagnostics: unreadable(file, text, parsed) };
    fast = parsed;
  }
  if (text.length <= FAST_LOCATE_BYTES && fast.nodes <= FAST_LOCATE_NODES) return checkText(file, text, options, inherited, fast);
  // A large file is checked noting the positions its problems ask for; with any, it is checked again with an
  // index of those alone, its first values let go: an index of every node beside them passed a 1 GB heap.
  const asked: ConfigPath[] = [];
  let first: ReturnType<typeof checkText> | undefined = checkText(file, text, options, inherited, fast, { record: asked });
  fast = undefined;
  if (asked.length === 0) {
    first.part?.view.stopRecording();
    return first;
  }
  first = undefined;
  const again = parseFast(text);
  if (!again.ok) return { diagnostics: unreadable(file, text, again) };
  return checkText(file, text, options, inherited, again, { only: asked });
}

function checkText(
  file: string,
  text: string,
  options: CheckOptions,
  inherited: Inherited | undefined,
  fast: FastParse,
  large?: LargeFilePositions,
): { diagnostics: Diagnostic[]; part?: FilePart } {
  const view = new FileView(file, text, fast.names, large);
  const locate = view.locate;
  if (fast.unusual) {
    if (large !== undefined) return { diagnostics: [notCompared(file, fast)] };
    const differs = readsTwoWays(view, fast);
    if (differs) return { diagnostics: differs };
  }
  const env = options.envFor?.(fast.value) ?? options.env ?? process.env;
  const source = { file, text, locate, anchored: fast.anchored };
  const interpolation = fast.interpolates
    ? interpolateDocument(fast.value, source, env, options.unsetEnv, options.onSecret)
    : noInterpolation();
  const data = merged(fast, file, locate);
  if ("error" in data) return { diagnostics: [data.error] };
  const own = isRecord(data.value) ? data.value : {};

  const scoped =
    inherited === undefined ? own : { ...own, defaults: mergedDefaults(inherited.defaults, own.defaults), policy: inherited.policy };
  const normalized = normalize(scoped, file, locate);
  const { ctx, diagnostics: ruleDiagnostics } = createRuleContext(file, own, normalized, locate);
  const told = runRules(RULES, ctx);
  // A root that includes other files may list no websites itself.
  const schemaData =
    inherited === undefined && own.include !== undefined && own.websites === undefined ? { ...own, websites: [] } : data.value;
  const schema = validateSchema(schemaData, file, locate, inherited === undefined ? "root" : "included");
  // A value whose ${VAR} failed still holds the raw reference; checking it further would only add noise.
  const checked = [...schema, ...ruleDiagnostics].filter((d) => !interpolation.failedPaths.has(d.path));
  // A password that is wrong anyway (a number, too long) has its error: the warning would only add noise.
  const wrong = new Set(checked.filter((d) => d.severity === "error").map((d) => d.path));
  const literal = literalPasswords(interpolation.literalPasswords, file, locate).filter((d) => !wrong.has(d.path));
  const all = quoteSource([...interpolation.diagnostics, ...checked, ...literal], interpolation);
  const diagnostics = atMost(file, all, told && schema.length <= MAX_FILE_PROBLEMS);
  return { diagnostics, part: { file, text, view, data: own, normalized, interpolation, locate, anchored: fast.anchored } };
}

/**
 * The first MAX_FILE_PROBLEMS problems in the file's order, and a last one saying there are more: a file with a
 * mistake in each of its 100,000 entries is told of the first ones at once, not after minutes (DESIGN §12).
 */
function atMost(file: string, diagnostics: Diagnostic[], complete: boolean): Diagnostic[] {
  if (complete && diagnostics.length <= MAX_FILE_PROBLEMS) return diagnostics;
  const first = [...diagnostics].sort((a, b) => a.line - b.line || a.column - b.column).slice(0, MAX_FILE_PROBLEMS);
  const message = `more than ${MAX_FILE_PROBLEMS.toLocaleString("en")} problems: the first are listed; fix them and run again to see the rest`;
  return [...first, { file, line: 0, column: 0, code: "config.too-many", path: "", message, severity: "error" }];
}

function mergedDefaults(root: unknown, own: unknown): Record<string, unknown> {
  return { ...(isRecord(root) ? root : {}), ...(isRecord(own) ? own : {}) };
}

function merged(fast: FastParse, file: string, locate: Locator): { value: unknown } | { error: Diagnostic } {
  if (!fast.merges) return { value: fast.value };
  try {
    return { value: resolveMerges(fast.value) };
  } catch (cause) {
    if (!(cause instanceof MergeError)) throw cause;
    const path = formatPath(cause.path);
    return {
      error: { file, ...locate.value(cause.path), code: "yaml.merge", path, message: `invalid YAML: ${cause.message}`, severity: "error" },
    };
  }
}

/** Most YAML above this size is not parsed again with positions to word its syntax error: js-yaml's words do. */
const MAX_REREAD_BYTES = 4 * 2 ** 20;

/**
 * A file the fast parse could not read: a bound crossed, said at its place; otherwise the position-keeping
 * parse words the error as it always has. Should that parse read the file, the two parsers disagree, and the
 * file is refused rather than read two ways (DESIGN §2).
 */
function unreadable(file: string, text: string, failure: FastFailure): Diagnostic[] {
  const at = { file, line: failure.line, column: failure.column, path: "" };
  if (failure.bound) return [{ ...at, code: failure.bound.code, message: `${failure.bound.message}: ${BOUND_HINT}`, severity: "error" }];
  if (text.length <= MAX_REREAD_BYTES) {
    const view = new FileView(file, text);
    if (view.parsed.diagnostics.some((d) => d.severity === "error")) return view.parsed.diagnostics;
    const message = `YAML parsers read this differently (${failure.reason}): write it plainly, as sitesync export does`;
    return [{ ...at, code: "yaml.ambiguous", message, severity: "error" }];
  }
  // js-yaml tells a quote never closed at the end of the file, as `yaml` does: the quote is where to look.
  const quote = unclosedAtEnd(text, failure.line);
  if (quote !== undefined) {
    const message = `invalid YAML: the quote ${text[quote]} opened here is never closed`;
    return [{ ...at, ...new FileView(file, text).locate.offset(quote), code: "yaml.missing-char", message, severity: "error" }];
  }
  return [{ ...at, code: "yaml.syntax", message: `invalid YAML: ${failure.reason}`, severity: "error" }];
}

/** What makes a file one the two parsers may read differently (fast-yaml.ts), when which one is not known. */
const ANY_TWO_WAYS =
  "a tag such as !!float, a %YAML directive, a key that is empty, a list or a mapping or over 1,024 characters, " +
  "an anchor named twice or before a mapping's first key, an empty list item (a - alone), a [key: value] item, a " +
  "quoted value or [list] over several lines, a | or > block with an indentation number such as |2, a # right " +
  "after a quote, a --- with no space after it, or a blank line holding a tab in a value over several lines";

/**
 * A large file that may read two ways is refused at the first such node, saying what it holds: comparing it with
 * `yaml` needs its Document, which for a file of 15 MB no longer fits a 1 GB heap (DESIGN §12).
 */
function notCompared(file: string, fast: FastParse): Diagnostic {
  const { line, column, why } = fast.unusualAt ?? { line: 1, column: 1, why: undefined };
  const what = why === undefined ? ANY_TWO_WAYS : TWO_WAYS[why];
  const message = `YAML parsers may read this differently (${what}), and a file over 4 MiB or 500,000 nodes is not compared, to stay within 1 GB of memory: write it plainly, as sitesync export does`;
  return { file, line, column, path: "", code: "yaml.ambiguous", message, severity: "error" };
}

/**
 * A carriage return with no line feed after it (old Mac line endings, or `\r\r\n` left by converting CRLF
 * twice) ends a line for js-yaml and is text for `yaml`: a comment could hide the entries after it from one of
 * them. Refused at the first one, its line counted as `yaml` counts them.
 */
function strayCarriageReturn(file: string, text: string): Diagnostic | undefined {
  const at = text.includes("\r") ? text.search(/\r(?!\n)/) : -1;
  if (at === -1) return undefined;
  return {
    file,
    ...new FileView(file, text).locate.offset(at),
    path: "",
    code: "yaml.line-break",
    message:
      "a carriage return without a line feed after it (old Mac line endings, or a CRLF file converted twice): YAML " +
      "parsers read it differently, as a line break or as text; save the file with LF or CRLF line endings",
    severity: "error",
  };
}

// DESIGN §12: what a parse may build is bounded, so that a hostile file is refused within a second.
const BOUND_HINT = "a config is a few levels of keys and lists; is this the right file?";

/**
 * A file with an explicit tag or a directive: the position-keeping parse must read the same values, else the
 * file is refused at the first value they read differently (a tag such as `!!float 1`).
 */
function readsTwoWays(view: FileView, fast: FastParse): Diagnostic[] | undefined {
  const { parsed } = view;
  if (parsed.diagnostics.some((d) => d.severity === "error")) return parsed.diagnostics;
  let value: unknown;
  try {
    value = fast.merges ? resolveMerges(fast.value) : fast.value;
  } catch {
    // A merge that cannot be made is told by `merged`, at its place.
    return undefined;
  }
  let slow: unknown;
  try {
    // Aliases are bounded by the fast parse (what they expand to); yaml's own count stops at 100 uses.
    slow = parsed.doc.toJS({ maxAliasCount: -1 });
  } catch {
    slow = Symbol("unread");
  }
  const found = firstDifference(value, slow, []);
  if (found === undefined) return undefined;
  const { path, keys } = found;
  // Keys read apart (`? [websites_url]`) are placed at the first key yaml reads as none of js-yaml's.
  const odd = keys && keyOutside(view.parsed.doc, path, keys);
  const at = odd === undefined ? view.locate.value(path) : view.locate.offset(odd);
  const message = `YAML parsers read this value differently (${ANY_TWO_WAYS} can make them): write it plainly, as sitesync export does`;
  return [{ file: view.file, ...at, code: "yaml.ambiguous", path: formatPath(path), message, severity: "error" }];
}

/** The first path where the two reads differ; `keys`, js-yaml's keys there when the two read a mapping's keys apart. */
function firstDifference(a: unknown, b: unknown, path: (string | number)[]): { path: ConfigPath; keys?: Set<string> } | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (const [i, item] of a.entries()) {
      const found = firstDifference(item, b[i], [...path, i]);
      if (found) return found;
    }
  }
  if (!isRecord(a) || !isRecord(b)) return { path };
  if (!isDeepStrictEqual(Object.keys(a), Object.keys(b))) return { path, keys: new Set(Object.keys(a)) };
  for (const key of Object.keys(a)) {
    const found = firstDifference(a[key], b[key], [...path, key]);
    if (found) return found;
  }
  return { path };
}

/**
 * A password written into the file itself: the file is meant for git, where everyone who can read the
 * repository, now or in its history, reads the password too. A warning, since it works; `${VAR}` is the fix.
 */
function literalPasswords(paths: readonly ConfigPath[], file: string, locate: Locator): Diagnostic[] {
  return paths.map((path) => ({
    file,
    ...locate.value(path),
    code: "password.literal",
    path: formatPath(path),
    message:
      "the password is written in the file, so everyone who can read the repository (and its history) can read it: " +
      "write password: ${SITE_PASSWORD} and set that variable in the environment or as a CI secret",
    severity: "warning" as const,
  }));
}
