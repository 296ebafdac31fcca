/** The end-of-run report of an apply: a table of applied / failed / skipped / unchanged, in text or Markdown. */
import { createColors } from "picocolors";
import type { Change } from "../plan/types.ts";
import type { ApplyCounts, ItemResult } from "./types.ts";

export function changeLabel(change: Change): string {
  if (change.kind === "project") return `project ${change.project}`;
  return change.action === "create" ? change.domain : `${change.domain} (id ${change.id})`;
}

export function countItems(items: ItemResult[], unchanged: number): ApplyCounts {
  const count = (status: ItemResult["status"]) => items.filter((i) => i.status === status).length;
  return { applied: count("applied"), failed: count("failed"), skipped: count("skipped"), unchanged };
}

/** One line per finished item: what `apply` prints as it goes when stderr is not a terminal (CI, cron). */
export function itemLine(item: ItemResult): string {
  const id = item.id !== undefined && item.change.action === "create" ? ` (id ${item.id})` : "";
  const what = `${item.change.action} ${changeLabel(item.change)}${id}`;
  if (item.status === "failed") return `failed  ${what}: ${item.error?.message ?? "unknown error"}`;
  return `${item.status} ${what}${item.note ? `: ${item.note}` : ""}`;
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
      lines.push(`      ${field}: ${messages.join(" ")}`);
    }
  }
  const header = ["applied", "failed", "skipped", "unchanged"] as const;
  const table = [
    header.map((h) => h.padStart(9)).join(" "),
    header.map((h) => String(counts[h]).padStart(9)).join(" "),
  ];
  const verdict =
    counts.failed > 0
      ? c.red("Apply finished with failures.")
      : counts.skipped > 0
        ? c.yellow(`Apply finished; ${counts.skipped} change${counts.skipped === 1 ? "" : "s"} skipped.`)
        : c.green("Apply complete.");
  return [...(lines.length ? [...lines, ""] : []), verdict, ...table].join("\n") + "\n";
}

export function renderResultsMarkdown(items: ItemResult[], counts: ApplyCounts): string {
  const title =
    counts.failed > 0
      ? "### sitesync apply: finished with failures"
      : counts.skipped > 0
        ? "### sitesync apply: finished, some changes skipped"
        : "### sitesync apply: complete";
  const lines = [
    title,
    "",
    "| applied | failed | skipped | unchanged |",
    "|---:|---:|---:|---:|",
    `| ${counts.applied} | ${counts.failed} | ${counts.skipped} | ${counts.unchanged} |`,
  ];
  const notable = items.filter((i) => i.status !== "applied");
  if (notable.length > 0) {
    lines.push("", "| status | change | detail |", "|---|---|---|");
    for (const item of notable) {
      const detail = item.status === "failed" ? item.error?.message ?? "" : item.note ?? "";
      lines.push(`| ${item.status} | ${item.change.action} ${escapeCell(changeLabel(item.change))} | ${escapeCell(detail)} |`);
    }
  }
  return lines.join("\n") + "\n";
}

function escapeCell(text: string): string {
  return text.replace(/[|<>`\\]/g, (ch) => `\\${ch}`).replace(/\n/g, " ");
}
