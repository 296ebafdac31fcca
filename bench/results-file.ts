/**
 * bench/RESULTS.md holds the latest full figures: a section written by `npm run bench` and one written by
 * `npm run soak -- --record`. Each writer replaces only its own section, between HTML comment markers.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const RESULTS_FILE = fileURLToPath(new URL("./RESULTS.md", import.meta.url));

const TITLE =
  "# sitesync performance results\n\n" +
  "Written by `npm run bench` (full run) and `npm run soak -- --record`; see docs/performance.md. " +
  "The bounds are DESIGN §8's.\n";

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
