import { writeFileSync } from "node:fs";
import { UsageError } from "../errors.ts";

/** Writes a file the user asked for (`--out`, `--results`); a failure is a usage error naming the path. */
export function writeOutput(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new UsageError(`cannot write ${path} (${code}): check the folder exists and is writable`);
  }
}
