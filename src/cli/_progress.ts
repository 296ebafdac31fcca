/**
 * Apply progress on stderr (DESIGN §6): one line per finished item, as in CI logs, and on a terminal a live
 * bar kept below those lines (the Io's status line). A change not started after a stop signal is not a line
 * here: the closing report counts them once.
 */
import type { ReadProgress } from "../api/types.ts";
import type { ItemResult } from "../apply/types.ts";
import { itemLine, rateWaitLine, readStatus, rereadLine } from "../render/index.ts";
import type { Io } from "./_io.ts";

export function progressReporter(
  io: Io,
  quiet: boolean,
  live = Boolean(process.stderr.isTTY),
): { onItem?: (item: ItemResult, done: number, total: number, account?: string) => void; finish(): void } {
  if (quiet) return { finish() {} };
  let failed = 0;
  // Accounts apply side by side: the bar counts them all, each account's done and total as it last said.
  const counts = new Map<string | undefined, { done: number; total: number }>();
  // Per account, the changes not started after a stop signal, which its "done" counts all the same.
  const notStarted = new Map<string | undefined, number>();
  return {
    onItem(item, doneHere, totalHere, account) {
      // After a stop signal the changes not started are counted once in the closing report: neither a line
      // nor progress of the bar, which would otherwise run to the end as if they had been done, also when a
      // change still in flight finishes after them.
      if (item.reason === "not-started") {
        notStarted.set(account, (notStarted.get(account) ?? 0) + 1);
        return;
      }
      if (item.status === "failed") failed++;
      io.err(itemLine(item, account));
      if (!live) return;
      counts.set(account, { done: doneHere - (notStarted.get(account) ?? 0), total: totalHere });
      const done = [...counts.values()].reduce((sum, c) => sum + c.done, 0);
      const total = [...counts.values()].reduce((sum, c) => sum + c.total, 0);
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

/**
 * Read progress on stderr (DESIGN §5: nothing is silent). On a terminal, a live line: pages read of total and
 * any wait for the rate limit, ticking each second. Otherwise (CI, cron) one line per wait of a second or
 * more, naming the limit and the server. A re-read after an integrity mismatch is a line either way.
 */
export function readReporter(io: Io, quiet: boolean, live = Boolean(process.stderr.isTTY)): ((event: ReadProgress) => void) | undefined {
  if (quiet) return undefined;
  let page: Extract<ReadProgress, { kind: "page" }> | undefined;
  let wait: { event: Extract<ReadProgress, { kind: "rate-wait" }>; since: number } | undefined;
  let ticker: NodeJS.Timeout | undefined;
  const draw = () => {
    const left = wait ? wait.event.ms - (Date.now() - wait.since) : 0;
    const text = readStatus(page, wait?.event, left);
    io.status(text === "" ? undefined : text);
  };
  return (event) => {
    if (event.kind === "reread") {
      io.err(rereadLine(event));
      return;
    }
    if (!live) {
      if (event.kind === "rate-wait" && event.phase === "start") io.err(rateWaitLine(event));
      return;
    }
    if (event.kind === "page") page = event.of !== undefined && event.read >= event.of ? undefined : event;
    else if (event.phase === "start") {
      wait = { event, since: Date.now() };
      ticker ??= setInterval(draw, 1000).unref();
    } else {
      wait = undefined;
      clearInterval(ticker);
      ticker = undefined;
    }
    draw();
  };
}
