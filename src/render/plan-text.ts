/** The terminal rendering of a Plan, Terraform-like (DESIGN §3). Colors only when asked (STYLE habit 9). */
import { createColors } from "picocolors";
import { plural } from "../model/plural.ts";
import type { Change, FieldChange, Plan, Selection, WebsiteCreate, WebsiteUpdate } from "../plan/types.ts";
import {
  formatEstimate,
  hasEstimate,
  LEFT_OUT,
  planAccountWords,
  printable,
  formatValue as rawValue,
  selectionFlags,
  setDiff,
  summaryWords,
  writeOnlyNote,
} from "./_values.ts";
import { describeChange } from "./change-line.ts";
import { refusalWords, type Surface } from "./refusal-words.ts";
import { changeNeedWords, secretNeedsLine } from "./secret-words.ts";
import { notEvaluatedLine, resendsLine, sinceHeadline, unverifiableHow } from "./since-words.ts";

type Colors = ReturnType<typeof createColors>;

export interface TextOptions {
  color?: boolean;
  /** Who reads it: the CLI's flags or the Action's inputs name each override. Default the CLI. */
  surface?: Surface;
  /** Adds each change's config position and the fingerprints. */
  verbose?: boolean;
  /** Leaves out the `Account:` line: a run's section of a named account has it in its heading. */
  accountInHeading?: boolean;
}

/** Renders a plan for a terminal; ends with a newline. */
export function renderText(plan: Plan, options: TextOptions = {}): string {
  const c = createColors(options.color ?? false);
  const lines: string[] = [];
  const partial = plan.selection === undefined ? undefined : c.yellow(c.bold(partialLine(plan.selection)));
  if (partial !== undefined) lines.push(partial, `Only the websites and projects these patterns select were compared. ${LEFT_OUT}`, "");
  const account = options.accountInHeading ? undefined : planAccountWords(plan);
  if (account !== undefined) lines.push(c.dim(`Account: ${printable(account)}`), "");
  if (plan.since !== undefined) lines.push(...sinceLines(plan.since, c), "");
  for (const [file, changes] of byFile(plan)) {
    lines.push(`Planned changes (${printable(file)}):`, "");
    for (const change of changes) lines.push(...changeLines(change, c, options.verbose ?? false));
    if (lines.at(-1) !== "") lines.push("");
  }
  const warnings = plan.warnings.map((w) => `${printable(w.message)}${where(w.source, options.verbose, c)}`);
  if (plan.unverifiable.length > 0) warnings.push(unverifiableWarning(plan));
  if (warnings.length > 0) {
    lines.push(c.yellow(c.bold("Warnings:")), ...warnings.map((w) => `  ${c.yellow("!")} ${w}`), "");
  }
  if (plan.changes.length === 0) {
    lines.push(c.green(partial === undefined ? "No changes. The account matches the configuration." : "No changes inside the selection."));
  }
  lines.push(`${c.bold("Plan:")} ${summaryWords(plan.summary)}.`);
  const needs = secretNeedsLine(plan.changes);
  if (needs !== undefined) lines.push(c.yellow(needs));
  const resends = resendsLine(plan.changes);
  if (resends !== undefined) lines.push(c.dim(resends));
  if (hasEstimate(plan.estimate)) lines.push(c.dim(`${formatEstimate(plan.estimate)}.`));
  if (plan.refusals.length > 0) {
    lines.push("", c.red(c.bold("Refused: this plan will not be applied.")));
    for (const r of plan.refusals) lines.push(`  ${c.red("✗")} ${printable(refusalWords(r, options.surface ?? "cli"))}`);
  }
  if (partial !== undefined) lines.push("", `${partial} (websites and projects outside it were not compared)`);
  return `${lines.join("\n")}\n`;
}

/**
 * The changes under the file that holds each (a config of many files names the client file, not the root), in
 * apply order within a file; a delete of a website no file lists is the config's as a whole: the root's.
 */
function byFile(plan: Plan): Map<string, Change[]> {
  const files = new Map<string, Change[]>();
  for (const change of plan.changes) {
    const file = change.source?.file ?? plan.configFile;
    files.set(file, [...(files.get(file) ?? []), change]);
  }
  return files;
}

function changeLines(change: Change, c: Colors, verbose: boolean): string[] {
  const fingerprint = verbose && "fingerprint" in change ? c.dim(` [${change.fingerprint}]`) : "";
  const suffix = where(change.source, verbose, c) + fingerprint;
  const { subject, detail } = describeChange(change, { reason: true, consequence: true });
  if (change.action === "delete") return [`  ${c.red("- delete")}  ${subject}: ${c.red(detail ?? "")}${suffix}`];
  const head = change.action === "create" ? c.green("+ create") : c.yellow("~ update");
  const need = changeNeedWords(change);
  const flag = need === undefined ? [] : [`      ${c.yellow(`! ${need}`)}`];
  return [`  ${head}  ${subject}${suffix}`, ...change.fields.map((f) => `      ${fieldLine(change, f, c)}`), ...flag, ""];
}

function fieldLine(change: WebsiteCreate | WebsiteUpdate, f: FieldChange, c: Colors): string {
  const after = formatValue(f.field, f.after);
  if (change.action === "create") return `${f.field}: ${after}`;
  const note = writeOnlyNote(f);
  if (note !== undefined && f.changedSince !== undefined) return `${f.field}: ${after}, ${c.dim(note)}`;
  if (note !== undefined) return `${f.field}: ${after} ${c.dim(`(${note})`)}`;
  const diff = setDiff(f);
  if (diff !== undefined) {
    const added = diff.added.map((e) => c.green(`+ ${printable(e)}`));
    const parts = [...added, ...diff.removed.map((e) => c.red(`- ${printable(e)}`))];
    return `${f.field}: ${parts.join(", ")}`;
  }
  return `${f.field}: ${formatValue(f.field, f.before)} → ${after}`;
}

/** Write-only values the plan cannot verify (`plan.unverifiable`), said as a warning with what to do (DESIGN §3). */
function unverifiableWarning(plan: Plan): string {
  const counts = plan.unverifiable.map(({ field, count }) => `${field} (${plural(count, "website")})`).join(" and ");
  const how = unverifiableHow(plan.since, "--changed-since REF", "--sync-write-only");
  return `The API never returns ${counts}, so the plan cannot verify those values: ${how}`;
}

/** The change the plan followed: scoped (and what it did not evaluate), read in full and why, or none known. */
function sinceLines(since: NonNullable<Plan["since"]>, c: Colors): string[] {
  const notEvaluated = notEvaluatedLine(since);
  const headline = since.known && since.read === "scoped" ? c.cyan(c.bold(sinceHeadline(since))) : c.yellow(sinceHeadline(since));
  return notEvaluated === undefined ? [headline] : [headline, notEvaluated];
}

/** `PARTIAL PLAN: --target 'a*.example.com'`: the banner of a partial plan, in every text output about it. */
export function partialLine(selection: Selection): string {
  return `PARTIAL PLAN: ${selectionFlags(selection, shellQuote)}`;
}

/** A pattern as a shell would take it back: single quotes, or JSON's double quotes when it holds one. */
function shellQuote(pattern: string): string {
  return printable(pattern.includes("'") ? JSON.stringify(pattern) : `'${pattern}'`);
}

function formatValue(field: FieldChange["field"], value: FieldChange["after"]): string {
  return printable(rawValue(field, value));
}

function where(source: Change["source"], verbose: boolean | undefined, c: Colors): string {
  return verbose && source !== undefined ? c.dim(` (${source.file}:${source.line}:${source.column})`) : "";
}
