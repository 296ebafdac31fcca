/**
 * The one writer of the files a user asks for (`plan --out`, `apply --results`, `export --out`). Each is
 * written atomically: a temporary file in the same folder, then a rename over the target, so that an
 * interrupted run (Ctrl-C, SIGTERM, a full disk) never leaves an empty or truncated file (DESIGN §7).
 */
import { accessSync, constants, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { UsageError } from "../errors.ts";

/** Writes `text` to `path` atomically; a failure is a usage error naming the path. */
export function writeOutput(path: string, text: string): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  try {
    writeFileSync(temp, text, { flag: "wx" });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw cannotWrite(path, error);
  }
}

/**
 * Checks, before anything is changed, that `path` can be written afterwards: its folder exists and is
 * writable, and it is not a folder. Nothing is created, so an interrupted run leaves no empty file behind.
 */
export function checkWritable(path: string): void {
  try {
    accessSync(dirname(path), constants.W_OK);
    const existing = statSync(path, { throwIfNoEntry: false });
    if (existing?.isDirectory()) throw Object.assign(new Error("a folder"), { code: "EISDIR" });
    if (existing) accessSync(path, constants.W_OK);
  } catch (error) {
    throw cannotWrite(path, error);
  }
}

function cannotWrite(path: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code ?? String(error);
  return new UsageError(`cannot write ${path} (${code}): check the folder exists and is writable`);
}
