/** One line of the benchmark table, and the two ways it is printed: a terminal table and Markdown. */

/**
 * What a row's `ok` says. `bound` rows (time, memory, 429s) hold a bound of DESIGN §8 that only a full run
 * enforces, since a CI machine is shared and slow; `count` rows are enforced always; `info` is context.
 */
export type RowKind = "bound" | "count" | "info";

export interface Row {
  scenario: string;
  measured: string;
  bound: string;
  /** measured ÷ bound's reference value, when the comparison is a ratio. */
  ratio?: number;
  ok: boolean;
  kind: RowKind;
}

/** Whether a failing row fails the run: counts always, bounds only in a full run. */
export function isEnforced(row: Row, quick: boolean): boolean {
  return row.kind === "count" || (row.kind === "bound" && !quick);
}

function cells(row: Row, quick: boolean): string[] {
  const verdict = row.kind === "info" ? "-" : row.ok ? "ok" : isEnforced(row, quick) ? "FAIL" : "over (not enforced)";
  return [row.scenario, row.measured, row.bound, row.ratio === undefined ? "" : row.ratio.toFixed(2), verdict];
}

const HEADER = ["scenario", "measured", "bound", "ratio", "ok"];

/** A plain-text table with aligned columns, for stdout. */
export function formatTable(rows: readonly Row[], quick: boolean): string {
  const table = [HEADER, ...rows.map((row) => cells(row, quick))];
  const widths = HEADER.map((_, i) => Math.max(...table.map((line) => line[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(table[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...table.slice(1).map(line)].join("\n");
}

/** The same table in Markdown, for bench/RESULTS.md. */
export function markdownTable(rows: readonly Row[], quick: boolean): string {
  const escapeCell = (value: string) => value.replaceAll("|", "\\|");
  const line = (values: string[]) => `| ${values.map(escapeCell).join(" | ")} |`;
  return [line(HEADER), line(HEADER.map(() => "---")), ...rows.map((row) => line(cells(row, quick)))].join("\n");
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

export function millis(ms: number): string {
  return `${Math.round(ms)} ms`;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
