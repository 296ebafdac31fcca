import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Writes each file (path relative to `dir` → text), making its folders: a config tree for a test. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}
