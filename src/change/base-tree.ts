/**
 * The files next to the config as a base commit holds them (DESIGN §3 "Plans that follow the change"), so
 * that the base's `include:` globs are matched by the loader's own globs against the commit, never against
 * today's working tree: one `git ls-tree` of the root file's folder, and the included files' bytes by one
 * `git cat-file --batch`. As on disk (config/include.ts), only regular files are files: a symbolic link is
 * listed as one (a glob that reaches it is an error, as in the working tree), a submodule is neither a file
 * to read nor a folder to walk into, and nothing outside the root's folder is listed. Bounded (DESIGN §12):
 * the entries listed, the bytes read. Failures are reason codes, never git's English (STYLE 16).
 */
import { relative, sep } from "node:path";
import { MAX_INCLUDED_BYTES, MAX_INCLUDED_FILES } from "../config/include.ts";
import type { FolderEntry } from "../config/source.ts";
import type { UnknownChangeReason } from "../model/config-change.ts";
import { type GitOptions, git } from "./git.ts";

/** The most entries a listing may hold: a large monorepo's folder, with room; more is refused, not truncated. */
const MAX_TREE_ENTRIES = 200_000;
/** What `ls-tree -r -l -z` prints for that many entries of long paths. */
const MAX_TREE_BYTES = 64 * 2 ** 20;

/** The root file's folder at a commit. */
export interface BaseTree {
  /** For the loader: lists a folder named as the loader names it (below `rootDir`). */
  list(folder: string): readonly FolderEntry[] | undefined;
  /** A regular file's blob, by its path as the loader names it. */
  blob(file: string): { oid: string; size: number } | undefined;
}

/** Where and how long git runs; each command sets the most bytes it reads. */
type GitRun = Pick<GitOptions, "cwd" | "timeoutMs">;

export type TreeResult = { ok: true; tree: BaseTree } | { ok: false; reason: UnknownChangeReason };

/**
 * Lists `folder` (the root file's folder inside the repository, `/`-separated, "" for its top) at `commit`.
 * `rootDir` is that folder as the loader names it (the config path's folder, as given).
 */
export async function listBaseTree(
  commit: string,
  folder: string,
  rootDir: string,
  run: GitRun,
  maxEntries = MAX_TREE_ENTRIES,
): Promise<TreeResult> {
  const object = folder === "" ? `${commit}^{tree}` : `${commit}:${folder}`;
  // --full-tree: git run in a subfolder would otherwise keep only the paths below it, as if relative to it.
  const listed = await git(["ls-tree", "-r", "-l", "-z", "--full-tree", "--end-of-options", object], { ...run, maxBytes: MAX_TREE_BYTES });
  if (listed.failure === "too-large") return { ok: false, reason: "base-tree-too-large" };
  if (listed.exitCode !== 0) return { ok: false, reason: "base-unreadable" };
  const entries = parseTree(listed.stdout.toString("utf8"), maxEntries);
  if (entries === undefined) return { ok: false, reason: "base-tree-too-large" };
  return { ok: true, tree: treeOf(entries, rootDir) };
}

interface TreeEntry {
  /** Relative to the listed folder, `/`-separated. */
  path: string;
  kind: FolderEntry["kind"];
  oid: string;
  size: number;
}

/** `<mode> <type> <oid> <size>\t<path>\0` per entry; `undefined` past the bound. */
function parseTree(out: string, maxEntries: number): TreeEntry[] | undefined {
  const entries: TreeEntry[] = [];
  for (const line of out.split("\0")) {
    if (line === "") continue;
    if (entries.length >= maxEntries) return undefined;
    const tab = line.indexOf("\t");
    const [mode, type, oid = "", size] = line.slice(0, tab).split(" ").filter(Boolean);
    // 100644 and 100755 are files, 120000 a symbolic link; 160000 (a submodule) is neither.
    const kind = type !== "blob" ? "other" : mode === "120000" ? "symlink" : mode === "100644" || mode === "100755" ? "file" : "other";
    entries.push({ path: line.slice(tab + 1), kind, oid, size: Number(size) });
  }
  return entries;
}

function treeOf(entries: readonly TreeEntry[], rootDir: string): BaseTree {
  const folders = new Map<string, Map<string, FolderEntry>>();
  const files = new Map<string, { oid: string; size: number }>();
  const add = (folder: string, entry: FolderEntry) => {
    const names = folders.get(folder) ?? new Map<string, FolderEntry>();
    if (!names.has(entry.name)) names.set(entry.name, entry);
    folders.set(folder, names);
  };
  for (const entry of entries) {
    const segments = entry.path.split("/");
    for (const [i, name] of segments.entries()) {
      const last = i === segments.length - 1;
      add(segments.slice(0, i).join("/"), { name, kind: last ? entry.kind : "folder" });
    }
    if (entry.kind === "file") files.set(entry.path, { oid: entry.oid, size: entry.size });
  }
  // A path as the loader names it (rootDir joined with the glob's match) → relative to the listed folder.
  const inside = (path: string): string | undefined => {
    const rel = relative(rootDir, path).split(sep).join("/");
    return rel.startsWith("..") || rel.startsWith("/") ? undefined : rel;
  };
  return {
    list: (folder) => {
      const rel = inside(folder);
      const names = rel === undefined ? undefined : folders.get(rel);
      return names === undefined ? undefined : [...names.values()];
    },
    blob: (file) => {
      const rel = inside(file);
      return rel === undefined ? undefined : files.get(rel);
    },
  };
}

export type BlobsResult = { ok: true; bytes: Map<string, Uint8Array> } | { ok: false; reason: UnknownChangeReason; file?: string };

/**
 * The bytes of `files` (paths as the loader names them) at the commit `tree` lists, by one `cat-file
 * --batch` of their blob ids: never more than `MAX_INCLUDED_FILES` files or `MAX_INCLUDED_BYTES` together.
 */
export async function readBaseFiles(tree: BaseTree, files: readonly string[], run: GitRun): Promise<BlobsResult> {
  const wanted = files.slice(0, MAX_INCLUDED_FILES).map((file) => ({ file, blob: tree.blob(file) }));
  const missing = wanted.find((w) => w.blob === undefined);
  if (missing) return { ok: false, reason: "base-unreadable", file: missing.file };
  const blobs = wanted as { file: string; blob: { oid: string; size: number } }[];
  const total = blobs.reduce((sum, w) => sum + w.blob.size, 0);
  if (total > MAX_INCLUDED_BYTES) return { ok: false, reason: "base-too-large" };
  const input = blobs.map((w) => `${w.blob.oid}\n`).join("");
  // Each answer is `<oid> blob <size>\n<bytes>\n`: the header's few bytes beside the sizes listed.
  const out = await git(["cat-file", "--batch"], { ...run, input, maxBytes: total + blobs.length * 200 + 1 });
  if (out.exitCode !== 0) return { ok: false, reason: out.failure === "too-large" ? "base-too-large" : "base-unreadable" };
  const bytes = new Map<string, Uint8Array>();
  let at = 0;
  for (const { file, blob } of blobs) {
    const end = out.stdout.indexOf(10, at);
    const [oid, type, size] = out.stdout.subarray(at, end).toString("utf8").split(" ");
    if (end < 0 || oid !== blob.oid || type !== "blob" || Number(size) !== blob.size) return { ok: false, reason: "base-unreadable", file };
    bytes.set(file, out.stdout.subarray(end + 1, end + 1 + blob.size));
    at = end + 1 + blob.size + 1;
  }
  return { ok: true, bytes };
}
