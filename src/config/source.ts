/**
 * Where a config's files come from (DESIGN §2 "Loading"): the disk, or a git commit for the base of a change
 * (change/load-base.ts). A source lists folders for the `include:` globs and reads files, asynchronously and
 * bounded; the loader asks it for the root, then lists, then reads every included file in one call.
 */
import { readdirSync } from "node:fs";
import { readConfigBytes } from "./read-bounded.ts";

/**
 * One entry of a folder as the `include:` globs see it. A symbolic link is neither a file to read nor a
 * folder to walk into: a glob that reaches one is an error, never a silent skip. A device or a submodule
 * is `other`, left out.
 */
export interface FolderEntry {
  name: string;
  kind: "file" | "folder" | "symlink" | "other";
}

export interface ConfigSource {
  /**
   * The bytes of each file, or why not (a regular file within the config cap); `undefined` for the files past
   * `maxTotal` bytes read together, which are not read.
   */
  read(files: readonly string[], maxTotal: number): Promise<(Uint8Array | string | undefined)[]>;
  /** A folder's entries, in any order, or `undefined` when it cannot be listed (no such folder). */
  list(folder: string): Promise<readonly FolderEntry[] | undefined>;
}

/** The files on disk, each read bounded (config/read-bounded.ts). */
export const diskSource: ConfigSource = {
  async read(files, maxTotal) {
    let total = 0;
    return files.map((file) => {
      if (total > maxTotal) return undefined;
      const bytes = readConfigBytes(file);
      if (typeof bytes !== "string") total += bytes.length;
      return bytes;
    });
  },
  async list(folder) {
    try {
      return readdirSync(folder, { withFileTypes: true }).map((entry) => ({
        name: entry.name,
        kind: entry.isFile() ? "file" : entry.isDirectory() ? "folder" : entry.isSymbolicLink() ? "symlink" : "other",
      }));
    } catch {
      return undefined;
    }
  },
};
