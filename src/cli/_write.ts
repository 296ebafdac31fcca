/** How the CLI writes a file the user named: never half a file, never an accidental overwrite. */
import { chmodSync, closeSync, existsSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { UsageError } from "../errors.ts";

/**
 * Creates `file` with `text`; `false` when it exists (even if it appeared since a check): never a silent
 * overwrite.
 */
export function writeNew(file: string, text: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, "wx");
    writeSync(fd, text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    throw new UsageError(`cannot write ${file} (${code ?? String(error)}): check the folder exists and is writable`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return true;
}

/**
 * Replaces `file` atomically (DESIGN §7): a temporary file in the same folder, then a rename, so a reader or
 * an interruption sees the old file or the new one, never half of one. The file keeps its permissions.
 */
export function writeAtomically(file: string, text: string): void {
  const temp = join(dirname(file), `.${basename(file)}.sitesync-${process.pid}.tmp`);
  try {
    const fd = openSync(temp, "wx", 0o600);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    if (existsSync(file)) chmodSync(temp, statSync(file).mode & 0o7777);
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new UsageError(`cannot write ${file} (${code}): check the folder exists and is writable`);
  }
}
