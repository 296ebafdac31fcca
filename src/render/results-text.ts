/** Apply's results for a terminal or a log: one line per item, and the closing report with its counts. */
import { createColors } from "picocolors";
import type { ApplyCounts, ItemResult } from "../apply/types.ts";
import { printable } from "../model/printable.ts";
import { changeLine } from "./change-line.ts";

/** One line per finished item: what `apply` prints as it goes when stderr is not a terminal (CI, cron). */
export function itemLine(item: ItemResult): string {
  const id = item.id !== undefined && item.change.action === "create" ? ` (id ${item.id})` : "";
  const what = `${changeLine(item.change)}${id}`;
  // A failure's message quotes the server: escaped, so that it cannot start a line of its own (DESIGN §12).
  if (item.status === "failed") return `failed  ${what}: ${printable(item.error?.message ?? "unknown error")}`;
  return `${item.status} ${what}${item.note ? `: ${printable(item.note)}` : ""}`;
}

/**
 * The closing report: failed and skipped items with their reasons (applied ones were already shown as
 * progress), then the counts.
 */
export function renderResultsText(items: ItemResult[], counts: ApplyCounts, color = false): string {
  const c = createColors(color);
  const mark = { applied: c.green("✓"), failed: c.red("✗"), skipped: c.yellow("−") } as const;
  const lines: string[] = [];
  for (const item of items.filter((i) => i.status !== "applied")) {
    lines.push(`  ${mark[item.status]} ${itemLine(item)}`);
    for (const [field, messages] of Object.entries(item.error?.fieldErrors ?? {})) {
      lines.push(`      ${printable(field)}: ${printable(messages.join(" "))}`);
    }
  }
  const header = ["applied", "failed", "skipped", "unchanged"] as const;
  const table = [header.map((h) => h.padStart(9)).join(" "), header.map((h) => String(counts[h]).padStart(9)).join(" ")];
  const verdict =
    counts.failed > 0
      ? c.red("Apply finished with failures.")
      : counts.skipped > 0
        ? c.yellow(`Apply finished; ${counts.skipped} change${counts.skipped === 1 ? "" : "s"} skipped.`)
        : c.green("Apply complete.");
  return [...(lines.length ? [...lines, ""] : []), verdict, ...table].join("\n") + "\n";
}
