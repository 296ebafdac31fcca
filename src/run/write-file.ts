/**
 * The one writer of the files a user asks for (`plan --out`, `apply --results`, `export --out`). Each is
 * written atomically: a temporary file in the same folder, then a rename over the target, so that an
 * interrupted run (Ctrl-C, SIGTERM, a full disk) never leaves an empty or truncated file (DESIGN §7).
 */
import { accessSync, chmodSync, constants, linkSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { UsageError } from "../errors.ts";

/** Writes `text` to `path` atomically, keeping a replaced file's permissions; a failure is a usage error naming the path. */
export function writeOutput(path: string, text: string): void {
  const temp = tempBeside(path);
  try {
    writeFileSync(temp, text, { flag: "wx" });
    const existing = statSync(path, { throwIfNoEntry: false });
    if (existing) chmodSync(temp, existing.mode & 0o7777);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw cannotWrite(path, error);
  }
}

/**
 * Creates `path` with `text`, atomically and only if it does not exist yet (`export` never overwrites a
 * file: DESIGN §7); `false` when it exists, even if it appeared since an earlier check. The hard link fails
 * with EEXIST instead of replacing, which a rename would do.
 */
export function writeNewOutput(path: string, text: string): boolean {
  const temp = tempBeside(path);
  try {
    writeFileSync(temp, text, { flag: "wx" });
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw cannotWrite(path, error);
  } finally {
    rmSync(temp, { force: true });
  }
}

function tempBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
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
