/**
 * The root file's `include:` globs → the files they name (DESIGN §2 "Many files, many accounts"), relative
 * to the root file, each glob's matches sorted. Bounded (DESIGN §12): how many files, how many directory
 * entries are looked at. Only regular files inside the root's folder: no absolute path, no `..`, no
 * symbolic link, so a pull request's config cannot make `validate` quote a file from elsewhere on the runner.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Diagnostic } from "../errors.ts";
import { matchGlob } from "../model/glob.ts";
import type { ConfigPath, Locator } from "./locate.ts";

/** The most files one root may include: hundreds of clients, with room to spare. */
export const MAX_INCLUDED_FILES = 2000;
/** The most bytes all included files together may hold: 4x the scale target's 14 MB export (DESIGN §12). */
export const MAX_INCLUDED_BYTES = 64 * 2 ** 20;
/** The most directory entries the globs may look at, whatever the tree holds. */
const MAX_ENTRIES_SEEN = 50_000;

/**
 * One entry of a folder as the `include:` globs see it. A symbolic link is neither a file to read nor a
 * folder to walk into: a glob that reaches one is an error, never a silent skip. A device or a submodule
 * is `other`, left out.
 */
export interface FolderEntry {
  name: string;
  kind: "file" | "folder" | "symlink" | "other";
}

/**
 * Lists one folder for the `include:` globs: its entries in any order, or `undefined` when it cannot be
 * listed (no such folder). From disk by default; the change lists a folder as a git commit holds it.
 */
export type ListFolder = (folder: string) => readonly FolderEntry[] | undefined;

/** `ListFolder` on disk. */
export function listFolderOnDisk(folder: string): FolderEntry[] | undefined {
  try {
    return readdirSync(folder, { withFileTypes: true }).map((entry) => ({
      name: entry.name,
      kind: entry.isFile() ? "file" : entry.isDirectory() ? "folder" : entry.isSymbolicLink() ? "symlink" : "other",
    }));
  } catch {
    return undefined;
  }
}

/** What one `include` entry matched, or why it cannot be used. */
type IncludeMatch = { ok: true; files: string[] } | { ok: false; problem: string; code?: string };

/**
 * The files `pattern` names below `dir` (the root file's folder), as paths relative to `dir` with `/`,
 * sorted. `*` and `?` match within one path segment, `**` any number of segments.
 */
function matchInclude(dir: string, pattern: string, list: ListFolder, budget: { entries: number }): IncludeMatch {
  const segments = pattern
    .trim()
    .replaceAll("\\", "/")
    .split("/")
    .filter((s) => s !== "" && s !== ".");
  if (pattern.trim().startsWith("/") || /^[A-Za-z]:/.test(pattern.trim())) {
    return { ok: false, problem: "must be relative to this file, not an absolute path" };
  }
  if (segments.includes("..")) return { ok: false, problem: "must stay inside this file's folder (no ..)" };
  if (segments.length === 0) return { ok: false, problem: "names no file" };
  const found = new Set<string>();
  // A symbolic link the glob reaches: a file it names, a folder it would walk into. Skipped, the websites
  // of the file it points at would go unmanaged without a word (and with prune on, be proposed for deletion).
  const linked = (at: string[], name: string, how = "matches"): Refused => ({
    code: "include.symlink",
    problem: `${how} ${[...at, name].join("/")}, a symbolic link: include regular files inside this folder (copy the file, or include its real path if it is inside this folder)`,
  });
  /** `undefined` once every match is found, else why the glob cannot be used. */
  const walk = (at: string[], rest: string[]): Refused | undefined => {
    const [head, ...tail] = rest;
    if (head === undefined) return undefined;
    if (head === "**") {
      const here = walk(at, tail);
      if (here !== undefined) return here;
      for (const entry of entries(dir, at, list, budget)) {
        if (entry === undefined) return tooMany;
        // `**` walks into every folder: a link might be one, and what is below it would be skipped.
        if (entry.kind === "symlink") return linked(at, entry.name, "walks into");
        if (entry.kind === "folder") {
          const below = walk([...at, entry.name], rest);
          if (below !== undefined) return below;
        }
      }
      return undefined;
    }
    const match = segmentMatcher(head);
    for (const entry of entries(dir, at, list, budget)) {
      if (entry === undefined) return tooMany;
      if (!match(entry.name)) continue;
      if (entry.kind === "symlink") return linked(at, entry.name);
      if (tail.length === 0 && entry.kind === "file") found.add([...at, entry.name].join("/"));
      else if (tail.length > 0 && entry.kind === "folder") {
        const below = walk([...at, entry.name], tail);
        if (below !== undefined) return below;
      }
    }
    return undefined;
  };
  const refused = walk([], segments);
  if (refused !== undefined) return { ok: false, ...refused };
  return { ok: true, files: [...found].sort() };
}

type Refused = { problem: string; code?: string };
const tooMany: Refused = { problem: `looks at more than ${MAX_ENTRIES_SEEN} files and folders: use a narrower glob` };

/** The entries of one folder, by name; `undefined` once over budget. */
function* entries(dir: string, at: string[], list: ListFolder, budget: { entries: number }): Generator<FolderEntry | undefined> {
  const listed = list(join(dir, ...at)) ?? [];
  for (const entry of [...listed].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (--budget.entries < 0) {
      yield undefined;
      return;
    }
    yield entry;
  }
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
 * read once, the root itself never). A glob that matches nothing, a file that cannot be read and a bound
 * crossed are errors at the glob's line in the root file.
 */
export function readIncludes(
  rootFile: string,
  root: Record<string, unknown>,
  locate: Locator,
  read: (file: string) => Uint8Array | string,
  list: ListFolder,
  digestOf: (bytes: Uint8Array) => string,
): { files: IncludedFile[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const files: IncludedFile[] = [];
  if (!Array.isArray(root.include)) return { files, diagnostics };
  const error = (path: ConfigPath, code: string, message: string) =>
    diagnostics.push({ file: rootFile, ...locate.value(path), code, path: `include[${path[1]}]`, message, severity: "error" });
  const dir = dirname(rootFile);
  const taken = new Set([join(rootFile)]);
  const budget = { entries: MAX_ENTRIES_SEEN };
  let bytes = 0;
  for (const [index, pattern] of root.include.entries()) {
    if (typeof pattern !== "string" || pattern.trim() === "") continue;
    const path = ["include", index];
    const match = matchInclude(dir, pattern, list, budget);
    if (!match.ok) {
      error(path, match.code ?? "include.invalid", `"${pattern}" ${match.problem}`);
      continue;
    }
    if (match.files.length === 0) {
      // A typo would otherwise drop a client's websites silently, and with prune on, propose their deletes.
      error(path, "include.no-match", `"${pattern}" matches no file next to ${rootFile}; fix the glob or remove it`);
      continue;
    }
    for (const name of match.files) {
      const file = join(dir, name);
      if (taken.has(file)) continue;
      taken.add(file);
      if (files.length >= MAX_INCLUDED_FILES) {
        error(path, "include.bound", `more than ${MAX_INCLUDED_FILES} files are included; split the repository`);
        return { files, diagnostics };
      }
      const content = read(file);
      if (typeof content === "string") {
        error(path, "include.unreadable", `cannot read ${file}: ${content}`);
        continue;
      }
      bytes += content.length;
      if (bytes > MAX_INCLUDED_BYTES) {
        error(path, "include.bound", `the included files hold more than ${MAX_INCLUDED_BYTES / 2 ** 20} MiB together`);
        return { files, diagnostics };
      }
      const text = decode(content);
      if (text === undefined) error(path, "include.binary", `${file} is not a UTF-8 text file`);
      else files.push({ file, text, digest: digestOf(content) });
    }
  }
  return { files, diagnostics };
}

function decode(bytes: Uint8Array): string | undefined {
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    return text.includes("\0") ? undefined : text;
  } catch {
    return undefined;
  }
}
