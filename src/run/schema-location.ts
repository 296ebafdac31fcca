/**
 * Where `export`'s modeline may point (config/export-config.ts `schemaReference`): the repository the file
 * is written in, and the schema files that exist for it, the running copy's first, then a copy of sitesync
 * installed as a dependency between the file's folder and that repository's root.
 */
import { existsSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { SchemaLocation } from "../config/export-config.ts";

const INSTALLED = join("node_modules", "sitesync", "schemas", "sitesync.schema.json");

export function schemaLocation(outputDir: string, runningSchema: string): SchemaLocation {
  const folder = realFolder(outputDir);
  const projectRoot = nearest(folder, ".git") ?? nearest(folder, "package.json") ?? folder;
  const installed = foldersUp(folder, projectRoot)
    .map((dir) => join(dir, INSTALLED))
    .filter((file) => existsSync(file));
  return { schemaFiles: [realFolder(runningSchema), ...installed], projectRoot };
}

/** The path with symbolic links resolved (the running copy's path is), as far as it exists. */
function realFolder(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function nearest(folder: string, marker: string): string | undefined {
  for (let dir = folder; ; dir = dirname(dir)) {
    if (existsSync(join(dir, marker))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** `folder` and each folder above it, up to `root` (itself or a folder above it) included. */
function foldersUp(folder: string, root: string): string[] {
  const folders = [folder];
  for (let dir = folder; dir !== root && dirname(dir) !== dir; ) {
    dir = dirname(dir);
    folders.push(dir);
  }
  return folders;
}
