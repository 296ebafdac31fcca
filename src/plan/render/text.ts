/** The terminal rendering of a Plan, Terraform-like (DESIGN §3). Colors only when asked (STYLE habit 9). */
import { createColors } from "picocolors";
import type { Change, FieldChange, Plan, WebsiteCreate, WebsiteUpdate } from "../types.ts";
import { DESTROYS, formatEstimate, formatValue as rawValue, printable, REASONS, setDiff, summaryWords, writeOnlyNote } from "./_values.ts";

type Colors = ReturnType<typeof createColors>;

export interface TextOptions {
  color?: boolean;
  /** Adds each change's config position and the fingerprints. */
  verbose?: boolean;
}

/** Renders a plan for a terminal; ends with a newline. */
export function renderText(plan: Plan, options: TextOptions = {}): string {
  const c = createColors(options.color ?? false);
  const lines: string[] = [];
  if (plan.changes.length > 0) {
    lines.push(`Planned changes (${plan.configFile}):`, "");
    for (const change of plan.changes) lines.push(...changeLines(change, c, options.verbose ?? false));
    if (lines.at(-1) !== "") lines.push("");
  }
  if (plan.warnings.length > 0) {
    lines.push(c.yellow(c.bold("Warnings:")));
    for (const w of plan.warnings) lines.push(`  ${c.yellow("!")} ${printable(w.message)}${where(w.source, options.verbose, c)}`);
    lines.push("");
  }
  if (plan.changes.length === 0) lines.push(c.green("No changes. The account matches the configuration."));
  lines.push(`${c.bold("Plan:")} ${summaryWords(plan.summary)}.`);
  if (plan.estimate.requests > 0) lines.push(c.dim(`${formatEstimate(plan.estimate)}.`));
  if (plan.refusals.length > 0) {
    lines.push("", c.red(c.bold("Refused: this plan will not be applied.")));
    for (const r of plan.refusals) lines.push(`  ${c.red("✗")} ${printable(r.message)}`);
  }
  return `${lines.join("\n")}\n`;
}

function changeLines(change: Change, c: Colors, verbose: boolean): string[] {
  const fingerprint = verbose && "fingerprint" in change ? c.dim(` [${change.fingerprint}]`) : "";
  const suffix = where(change.source, verbose, c) + fingerprint;
  if (change.action === "delete") {
    const subject =
      change.kind === "website" ? `${printable(change.domain)} (id ${change.id}, ` : `project ${printable(change.project)} (`;
    const head = `  ${c.red("- delete")}  ${subject}${REASONS[change.reason]})`;
    return [`${head}: ${c.red(DESTROYS[change.kind])}${suffix}`];
  }
  const head =
    change.action === "create"
      ? `  ${c.green("+ create")}  ${printable(change.domain)}`
      : `  ${c.yellow("~ update")}  ${printable(change.domain)} (id ${change.id})`;
  return [head + suffix, ...change.fields.map((f) => `      ${fieldLine(change, f, c)}`), ""];
}

function fieldLine(change: WebsiteCreate | WebsiteUpdate, f: FieldChange, c: Colors): string {
  const after = formatValue(f.field, f.after);
  if (change.action === "create") return `${f.field}: ${after}`;
  const note = writeOnlyNote(f);
  if (note !== undefined) return `${f.field}: ${after} ${c.dim(`(${note})`)}`;
  const diff = setDiff(f);
  if (diff !== undefined) {
    const added = diff.added.map((e) => c.green(`+ ${printable(e)}`));
    const parts = [...added, ...diff.removed.map((e) => c.red(`- ${printable(e)}`))];
    return `${f.field}: ${parts.join(", ")}`;
  }
  return `${f.field}: ${formatValue(f.field, f.before)} → ${after}`;
}

function formatValue(field: FieldChange["field"], value: FieldChange["after"]): string {
  return printable(rawValue(field, value));
}

function where(source: Change["source"], verbose: boolean | undefined, c: Colors): string {
  return verbose && source !== undefined ? c.dim(` (${source.file}:${source.line}:${source.column})`) : "";
}
