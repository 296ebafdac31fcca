/**
 * bench/RESULTS.md holds the latest full figures: a section written by `npm run bench` and one written by
 * `npm run soak -- --record`. Each writer replaces only its own section, between HTML comment markers.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const RESULTS_FILE = fileURLToPath(new URL("./RESULTS.md", import.meta.url));

const TITLE =
  "# sitesync performance results\n\n" +
  "Written by `npm run bench` (full run) and `npm run soak -- --record`; see docs/performance.md, " +
  "which states each bound.\n";

export function writeResultsSection(name: "bench" | "soak", markdown: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let text = existsSync(RESULTS_FILE) ? readFileSync(RESULTS_FILE, "utf8") : TITLE;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from >= 0 && to > from) text = text.slice(0, from) + block + text.slice(to + end.length);
  else if (name === "bench" && text.includes("<!-- soak:start -->"))
    text = text.replace("<!-- soak:start -->", `${block}\n\n<!-- soak:start -->`);
  else text = `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(RESULTS_FILE, text.endsWith("\n") ? text : `${text}\n`);
}

/**
 * `--only … --record`: in the bench section, the rows of the scenarios run (those whose label starts with one
 * of `prefixes`) replaced by `rows`, where the first of them stood (else at the table's end), and a line saying
 * when they were run; the other scenarios' rows stay as the last full run wrote them.
 */
export function replaceBenchRows(prefixes: readonly string[], rows: readonly string[], note: { key: string; text: string }): void {
  const text = readFileSync(RESULTS_FILE, "utf8");
  const start = text.indexOf("<!-- bench:start -->");
  const end = text.indexOf("<!-- bench:end -->");
  if (start < 0 || end < start) throw new Error("bench/RESULTS.md has no bench section: run the full bench first");
  const lines = text.slice(start, end).split("\n");
  const isRow = (line: string) => line.startsWith("| ") && !line.startsWith("| scenario |") && !line.startsWith("| --- |");
  const ours = (line: string) => isRow(line) && prefixes.some((prefix) => line.startsWith(`| ${prefix}`));
  const first = lines.findIndex(ours);
  const lastRow = lines.findLastIndex(isRow);
  const at = first >= 0 ? first : lastRow + 1;
  const kept = lines.flatMap((line, i) => [...(i === at ? rows : []), ...(ours(line) ? [] : [line])]);
  const marker = `<!-- ${note.key} -->`;
  // The note of an earlier record, with the blank line after it.
  const noted = kept.filter((line, i) => !line.includes(marker) && !(line === "" && kept[i - 1]?.includes(marker)));
  const blank = noted.findIndex((line, i) => i > 2 && line === "" && noted[i - 1] !== "" && !isRow(noted[i - 1] ?? ""));
  noted.splice(blank + 1, 0, `${note.text} ${marker}`, "");
  writeFileSync(RESULTS_FILE, text.slice(0, start) + noted.join("\n") + text.slice(end));
}
