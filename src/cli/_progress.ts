/**
 * Apply progress on stderr (DESIGN §6): one line per finished item, as in CI logs, and on a terminal a live
 * bar kept below those lines (cleared, the item's line printed, the bar drawn again).
 */

import type { ItemResult } from "../apply/types.ts";
import { itemLine } from "../render/index.ts";
import type { Io } from "./_io.ts";

/** Erases the current terminal line: the bar, before an item's line takes its place. */
const CLEAR_LINE = "\r\x1b[K";

export function progressReporter(
  io: Io,
  quiet: boolean,
): { onItem?: (item: ItemResult, done: number, total: number) => void; finish(): void } {
  if (quiet) return { finish() {} };
  if (!process.stderr.isTTY) return { onItem: (item) => io.err(itemLine(item)), finish() {} };
  let failed = 0;
  let drawn = false;
  return {
    onItem(item, done, total) {
      if (item.status === "failed") failed++;
      if (drawn) process.stderr.write(CLEAR_LINE);
      io.err(itemLine(item));
      const width = 24;
      const filled = Math.round((done / Math.max(total, 1)) * width);
      const bar = "█".repeat(filled) + "░".repeat(width - filled);
      process.stderr.write(io.redactor.redact(`${bar} ${done}/${total}${failed ? `, ${failed} failed` : ""}  `));
      drawn = true;
    },
    finish() {
      if (drawn) process.stderr.write(CLEAR_LINE);
    },
  };
}
