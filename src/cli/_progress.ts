/**
 * Apply progress on stderr (DESIGN §6): one line per finished item, as in CI logs, and on a terminal a live
 * bar kept below those lines (the Io's status line). A change not started after a stop signal is not a line
 * here: the closing report counts them once.
 */
import type { ItemResult } from "../apply/types.ts";
import { itemLine } from "../render/index.ts";
import type { Io } from "./_io.ts";

export function progressReporter(
  io: Io,
  quiet: boolean,
): { onItem?: (item: ItemResult, done: number, total: number) => void; finish(): void } {
  if (quiet) return { finish() {} };
  const live = Boolean(process.stderr.isTTY);
  let failed = 0;
  return {
    onItem(item, done, total) {
      if (item.status === "failed") failed++;
      if (item.reason !== "not-started") io.err(itemLine(item));
      if (!live) return;
      const width = 24;
      const filled = Math.round((done / Math.max(total, 1)) * width);
      const bar = "█".repeat(filled) + "░".repeat(width - filled);
      io.status(`${bar} ${done}/${total}${failed ? `, ${failed} failed` : ""}  `);
    },
    finish() {
      io.status(undefined);
    },
  };
}
