/** Apply's results for a terminal or a log: one line per item, and the closing report with its counts. */
import { createColors } from "picocolors";
import type { ItemResult } from "../apply/types.ts";
import { plural } from "../model/plural.ts";
import { printable } from "../model/printable.ts";
import type { ApplyReport } from "../run/types.ts";
import { changeLine } from "./change-line.ts";
import { itemNote } from "./item-note.ts";

/**
 * One line per finished item: what `apply` prints as it goes when stderr is not a terminal (CI, cron). With
 * several accounts applying side by side, each line starts with its account, `[eu] applied …`, as the notes do.
 */
export function itemLine(item: ItemResult, account = ""): string {
  const line = itemText(item);
  // The account of a config without `accounts:` has no name: its lines need none.
  return account === "" ? line : `[${printable(account)}] ${line}`;
}

function itemText(item: ItemResult): string {
  const id = item.id !== undefined && item.change.action === "create" ? ` (id ${item.id})` : "";
  const what = `${changeLine(item.change)}${id}`;
  // A failure's message quotes the server: escaped, so that it cannot start a line of its own (DESIGN §12).
  const note = itemNote(item);
  if (item.status === "failed") {
    return `failed  ${what}: ${printable(item.error?.message ?? "unknown error")}${note ? ` (${printable(note)})` : ""}`;
  }
  return `${item.status} ${what}${note ? `: ${printable(note)}` : ""}`;
}

/**
 * The closing report: failed and skipped items with their reasons (applied ones were already shown as
 * progress), then the counts. After a stop signal the changes not started are one line, not a list.
 */
export function renderResultsText(
  { items, counts, interrupted }: Pick<ApplyReport, "items" | "counts" | "interrupted">,
  color = false,
): string {
  const c = createColors(color);
  const mark = { applied: c.green("✓"), failed: c.red("✗"), skipped: c.yellow("−") } as const;
  const lines: string[] = [];
  const notStarted = items.filter((i) => i.reason === "not-started").length;
  if (notStarted > 0)
    lines.push(
      `  ${mark.skipped} ${plural(notStarted, "change")} not started: the run was interrupted by ${interrupted ?? "a stop request"}`,
    );
  for (const item of items.filter((i) => i.status !== "applied" && i.reason !== "not-started")) {
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
        ? c.yellow(`Apply finished; ${plural(counts.skipped, "change")} skipped.`)
        : c.green("Apply complete.");
  return `${[...(lines.length ? [...lines, ""] : []), verdict, ...table].join("\n")}\n`;
}
