/** Apply progress on stderr: a live counter on a terminal, one line per finished item otherwise (DESIGN §6). */
import { itemLine } from "../render/index.ts";
import type { ItemResult } from "../apply/types.ts";
import type { Io } from "./_io.ts";

export function progressReporter(io: Io, quiet: boolean): { onItem?: (item: ItemResult, done: number, total: number) => void; finish(): void } {
  if (quiet) return { finish() {} };
  if (!process.stderr.isTTY) return { onItem: (item) => io.err(itemLine(item)), finish() {} };
  let failed = 0;
  let drawn = false;
  return {
    onItem(item, done, total) {
      if (item.status === "failed") failed++;
      const width = 24;
      const filled = Math.round((done / Math.max(total, 1)) * width);
      const bar = "█".repeat(filled) + "░".repeat(width - filled);
      process.stderr.write(io.redactor.redact(`\r${bar} ${done}/${total}${failed ? `, ${failed} failed` : ""}  `));
      drawn = true;
    },
    finish() {
      if (drawn) process.stderr.write("\n");
    },
  };
}
