/** Apply's results as GitHub-flavored Markdown, for `--format markdown` and the Action's job summary. */
import type { ApplyCounts, ItemResult } from "../apply/types.ts";
import { changeLine } from "./change-line.ts";
import { itemNote } from "./item-note.ts";
import { md } from "./md.ts";

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
      const note = itemNote(item);
      const detail = item.status === "failed" ? [item.error?.message ?? "", note && `(${note})`].filter(Boolean).join(" ") : (note ?? "");
      lines.push(`| ${item.status} | ${md(changeLine(item.change))} | ${md(detail)} |`);
    }
  }
  return `${lines.join("\n")}\n`;
}
