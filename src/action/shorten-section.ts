/**
 * Shortens an account's section another leg wrote, when the fleet's comment would not fit otherwise
 * (comment-sections.ts): the section's first lines (its heading and summary counts) stay, cut at a line (the
 * text is already redacted, so no cut falls inside a secret) with every code fence and `<details>` closed, then
 * its reviewed plan whole (never cut: the merge applies only what it holds) or, when even that does not fit,
 * a warning that the merge will apply nothing of it. Pure.
 */
import { shortenedSectionNote } from "../render/github-notes.ts";
import { firstLines, size } from "./compose.ts";
import { omittedBlock, reviewedLineKind } from "./reviewed-block.ts";

/**
 * `section` (start line, content, end line) within `budget` bytes, or undefined when not even its start,
 * end and note fit. A section that fits is returned as it is.
 */
export function shortenSection(section: string, budget: number): string | undefined {
  if (size(section) <= budget) return section;
  const lines = section.split("\n");
  const [start = "", end = ""] = [lines[0], lines.at(-1)];
  const inner = lines.slice(1, -1);
  const reviewed = inner.filter((line) => reviewedLineKind(line) !== undefined);
  const visible = inner.filter((line) => reviewedLineKind(line) === undefined);
  const frame = (tail: string) => size(`${start}\n\n${tail}\n${end}`);
  // A section whose plan was too large to carry holds only the line saying so: nothing more to drop.
  const carried = reviewed.some((line) => reviewedLineKind(line) === "block");
  const kept = `\n\n${shortenedSectionNote(carried || reviewed.length === 0 ? "kept" : "too-large")}\n${reviewed.join("\n")}`;
  if (frame(kept) <= budget) return `${start}\n${firstLines(visible, budget - frame(kept)).text}${kept}\n${end}`;
  const dropped = `\n\n${shortenedSectionNote(carried ? "dropped" : "too-large")}\n${omittedBlock().trim()}`;
  if (!carried || frame(dropped) > budget) return undefined;
  return `${start}\n${firstLines(visible, budget - frame(dropped)).text}${dropped}\n${end}`;
}
