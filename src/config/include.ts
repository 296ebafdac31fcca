/**
 * The root file's `include:` globs → the files they name (DESIGN §2 "Many files, many accounts"), relative
 * to the root file, each glob's matches sorted. Bounded (DESIGN §12): how many files, how many directory
 * entries are looked at. Only regular files inside the root's folder: no absolute path, no `..`, no
 * symbolic link, so a pull request's config cannot make `validate` quote a file from elsewhere on the runner.
 */
import { dirname, join } from "node:path";
import type { Diagnostic } from "../errors.ts";
import { matchGlob } from "../model/glob.ts";
import type { Locator } from "./locate.ts";
import { configDigest, decodeText } from "./read-bounded.ts";
import type { ConfigSource, FolderEntry } from "./source.ts";

/** The most files one root may include: hundreds of clients, with room to spare. */
export const MAX_INCLUDED_FILES = 2000;
/** The most bytes all included files together may hold: 4x the scale target's 14 MB export (DESIGN §12). */
export const MAX_INCLUDED_BYTES = 64 * 2 ** 20;
/** The most directory entries the globs may look at, whatever the tree holds. */
const MAX_ENTRIES_SEEN = 50_000;

/** What one `include` entry matched, or why it cannot be used. */
type IncludeMatch = { ok: true; files: string[] } | { ok: false; problem: string; code?: string };

/**
 * The files `pattern` names below `dir` (the root file's folder), as paths relative to `dir` with `/`,
 * sorted. `*` and `?` match within one path segment, `**` any number of segments.
 */
async function matchInclude(dir: string, pattern: string, list: ConfigSource["list"], budget: { entries: number }): Promise<IncludeMatch> {
  const trimmed = pattern.trim();
  const segments = trimmed
    .replaceAll("\\", "/")
    .split("/")
    .filter((s) => s !== "" && s !== ".");
  if (trimmed.startsWith("/") || /^[A-Za-z]:/.test(trimmed)) {
    return { ok: false, problem: "must be relative to this file, not an absolute path" };
  }
  if (segments.includes("..")) return { ok: false, problem: "must stay inside this file's folder (no ..)" };
  if (segments.length === 0) return { ok: false, problem: "names no file" };
  const walk: Walk = { dir, list, budget, found: new Set<string>() };
  const refused = await walkGlob(walk, [], segments);
  if (refused !== undefined) return { ok: false, ...refused };
  return { ok: true, files: [...walk.found].sort() };
}

/** One glob's walk: where it starts, how it lists folders, its budget, and the files it matched so far. */
interface Walk {
  dir: string;
  list: ConfigSource["list"];
  budget: { entries: number };
  found: Set<string>;
}

/** Walks the segments `rest` from the folder `at`: `undefined` once every match is found, else why the glob cannot be used. */
async function walkGlob(walk: Walk, at: string[], rest: string[]): Promise<Refused | undefined> {
  const [head, ...tail] = rest;
  if (head === undefined) return undefined;
  if (head === "**") return walkAny(walk, at, rest, tail);
  const match = segmentMatcher(head);
  for (const entry of await entries(walk.dir, at, walk.list, walk.budget)) {
    if (entry === undefined) return tooMany;
    if (!match(entry.name)) continue;
    if (entry.kind === "symlink") return linked(at, entry.name);
    if (tail.length === 0 && entry.kind === "file") walk.found.add([...at, entry.name].join("/"));
    else if (tail.length > 0 && entry.kind === "folder") {
      const below = await walkGlob(walk, [...at, entry.name], tail);
      if (below !== undefined) return below;
    }
  }
  return undefined;
}

/** `**`: the rest matched here, then in every folder below. */
async function walkAny(walk: Walk, at: string[], rest: string[], tail: string[]): Promise<Refused | undefined> {
  const here = await walkGlob(walk, at, tail);
  if (here !== undefined) return here;
  for (const entry of await entries(walk.dir, at, walk.list, walk.budget)) {
    if (entry === undefined) return tooMany;
    // `**` walks into every folder: a link might be one, and what is below it would be skipped.
    if (entry.kind === "symlink") return linked(at, entry.name, "walks into");
    if (entry.kind === "folder") {
      const below = await walkGlob(walk, [...at, entry.name], rest);
      if (below !== undefined) return below;
    }
  }
  return undefined;
}

/**
 * A symbolic link the glob reaches: a file it names, a folder it would walk into. Skipped, the websites of the
 * file it points at would go unmanaged without a word (and with prune on, be proposed for deletion).
 */
function linked(at: string[], name: string, how = "matches"): Refused {
  return {
    code: "include.symlink",
    problem: `${how} ${[...at, name].join("/")}, a symbolic link: include regular files inside this folder (copy the file, or include its real path if it is inside this folder)`,
  };
}

type Refused = { problem: string; code?: string };
const tooMany: Refused = { problem: `looks at more than ${MAX_ENTRIES_SEEN} files and folders: use a narrower glob` };

/** The entries of one folder, by name, ending in `undefined` once over budget. */
async function entries(
  dir: string,
  at: string[],
  list: ConfigSource["list"],
  budget: { entries: number },
): Promise<(FolderEntry | undefined)[]> {
  const listed = (await list(join(dir, ...at))) ?? [];
  const sorted: (FolderEntry | undefined)[] = [];
  for (const entry of [...listed].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (--budget.entries < 0) return [...sorted, undefined];
    sorted.push(entry);
  }
  return sorted;
}

/** `*` any run of characters in a name, `?` one, in linear time (model/glob.ts); the rest stands for itself. */
function segmentMatcher(segment: string): (name: string) => boolean {
  // A leading dot is matched only when written (as shells do): `*.yaml` skips `.hidden.yaml`.
  return (name) => (name.startsWith(".") && !segment.startsWith(".") ? false : matchGlob(segment, name, { caseSensitive: true }));
}

/** An included file, read: its path as diagnostics name it, its text and its digest. */
export interface IncludedFile {
  file: string;
  text: string;
  digest: string;
}

/**
 * Reads every file the root's `include:` names, in order (each glob's matches sorted, a file named twice
 * read once, the root itself never), all in one read of the source. A glob that matches nothing, a file that
 * cannot be read and a bound crossed are errors at the glob's line in the root file.
 */
export async function readIncludes(
  rootFile: string,
  root: Record<string, unknown>,
  locate: Locator,
  source: ConfigSource,
): Promise<{ files: IncludedFile[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  if (!Array.isArray(root.include)) return { files: [], diagnostics };
  const error = (index: number, code: string, message: string) =>
    diagnostics.push({ file: rootFile, ...locate.value(["include", index]), code, path: `include[${index}]`, message, severity: "error" });
  const named = await namedFiles(rootFile, root.include, source, error);
  const contents = await source.read(
    named.map((n) => n.file),
    MAX_INCLUDED_BYTES,
  );
  const files: IncludedFile[] = [];
  let bytes = 0;
  for (const [i, { file, index }] of named.entries()) {
    const content = contents[i];
    if (content !== undefined && typeof content !== "string") bytes += content.length;
    if (content === undefined || bytes > MAX_INCLUDED_BYTES) {
      error(index, "include.bound", `the included files hold more than ${MAX_INCLUDED_BYTES / 2 ** 20} MiB together`);
      break;
    }
    if (typeof content === "string") {
      error(index, "include.unreadable", `cannot read ${file}: ${content}`);
      continue;
    }
    const text = decodeText(content);
    if (typeof text === "string") files.push({ file, text, digest: configDigest(content) });
    else {
      // Told in the included file, where the byte is, rather than at the glob that named it.
      const { line, column, why } = text;
      const message = `the included file is not a UTF-8 text file: ${why}`;
      diagnostics.push({ file, line, column, code: "include.binary", path: "", message, severity: "error" });
    }
  }
  return { files, diagnostics };
}

/** The files the globs name, each with the index of the first glob that names it. */
async function namedFiles(
  rootFile: string,
  patterns: unknown[],
  source: ConfigSource,
  error: (index: number, code: string, message: string) => void,
): Promise<{ file: string; index: number }[]> {
  const dir = dirname(rootFile);
  const taken = new Set([join(rootFile)]);
  const budget = { entries: MAX_ENTRIES_SEEN };
  const named: { file: string; index: number }[] = [];
  for (const [index, pattern] of patterns.entries()) {
    if (typeof pattern !== "string" || pattern.trim() === "") continue;
    const match = await matchInclude(dir, pattern, source.list, budget);
    if (!match.ok) {
      error(index, match.code ?? "include.invalid", `"${pattern}" ${match.problem}`);
      continue;
    }
    if (match.files.length === 0) {
      // A typo would otherwise drop a client's websites silently, and with prune on, propose their deletes.
      error(index, "include.no-match", `"${pattern}" matches no file next to ${rootFile}; fix the glob or remove it`);
      continue;
    }
    for (const file of match.files.map((name) => join(dir, name))) {
      if (taken.has(file)) continue;
      taken.add(file);
      if (named.length >= MAX_INCLUDED_FILES) {
        error(index, "include.bound", `more than ${MAX_INCLUDED_FILES} files are included; split the repository`);
        return named;
      }
      named.push({ file, index });
    }
  }
  return named;
}
