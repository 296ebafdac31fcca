/**
 * `adopt` as text: the diff of each file changed (stdout), and lines saying what changed in each file and
 * what was left out (stderr); or, refused, every line that cannot be updated and that nothing was written.
 * An account of one file reads as a config of one file. Pure.
 */
import { createColors } from "picocolors";
import type { UpdateSummary } from "../adopt/update-config.ts";
import type { FileUpdate } from "../adopt/update-files.ts";
import { formatDiagnostic } from "../errors.ts";
import { plural } from "../model/plural.ts";
import { printable } from "../model/printable.ts";
import type { Adopted } from "../run/types.ts";
import type { Sections } from "./sections.ts";

/** What of the terminal's context the update's text needs (outcome-text.ts's TextContext has it). */
interface UpdateTextContext {
  color: boolean;
  /** `--quiet`: the diff only. */
  quiet: boolean;
  /** `--dry-run`: the diff was shown, nothing written. */
  dryRun?: boolean | undefined;
}

export function adoptSections(adopted: Adopted, context: UpdateTextContext): Sections {
  const { files } = adopted;
  const refused = files.flatMap(({ result }) => (result.ok ? [] : result.diagnostics));
  const [only] = files;
  if (files.length === 1 && only) return oneFile(only, adopted, context);
  const lines = refused.map((d) => printable(formatDiagnostic(d)));
  if (refused.length > 0) {
    const why = `The config cannot be updated safely: no file was changed. Edit the lines above by hand, or run "sitesync plan" to see the drift.`;
    return { summary: "", notes: [...lines, why] };
  }
  const { color, quiet, dryRun = false } = context;
  const diffs = files.flatMap(({ result }) => (result.ok && result.diff ? [result.diff] : []));
  const summary = diffs.length > 0 ? (color ? colorDiff(diffs.join("")) : diffs.join("")) : "";
  if (quiet) return { summary, notes: [] };
  const changed = files.filter(({ source, result }) => result.ok && result.text !== source);
  const total = sum(
    files.flatMap(({ result }) => (result.ok ? [result.summary] : [])),
    adopted,
  );
  const notes = changed.map(({ file, result }) => (result.ok ? fileLine(file, result.summary, dryRun) : ""));
  notes.push(totalLine(changed.length, files.length, total, dryRun));
  return { summary, notes };
}

/** An account of one file: the diff, and one line saying what changed in the file and what was left out of it. */
function oneFile({ file, source, result }: FileUpdate, adopted: Adopted, { color, quiet, dryRun }: UpdateTextContext): Sections {
  if (!result.ok) {
    const lines = result.diagnostics.map((d) => printable(formatDiagnostic(d)));
    const why = `${file} cannot be updated safely: it was not changed. Edit the lines above by hand, or run "sitesync plan" to see the drift.`;
    return { summary: "", notes: [...lines, why] };
  }
  const summary = result.diff ? (color ? colorDiff(result.diff) : result.diff) : "";
  const summed = sum([result.summary], adopted);
  return { summary, notes: quiet ? [] : [updateLine(printable(file), summed, result.text !== source, dryRun ?? false)] };
}

function updateLine(file: string, s: UpdateSummary, changed: boolean, dryRun: boolean): string {
  const verb = !changed
    ? `${file} already matches the account`
    : dryRun
      ? `${file} would be updated (--dry-run: nothing written)`
      : `Updated ${file}`;
  return `${verb}: websites ${counts(s, true)}${leftOut(s)}.`;
}

/** One changed file of many: what changed in it (what no file took is said once, in the total). */
function fileLine(file: string, s: UpdateSummary, dryRun: boolean): string {
  const verb = dryRun ? `${printable(file)} would be updated` : `Updated ${printable(file)}`;
  return `${verb}: websites ${counts(s, false)}.`;
}

function totalLine(changed: number, files: number, s: UpdateSummary, dryRun: boolean): string {
  const verb =
    changed === 0
      ? `All ${files} files already match the account`
      : dryRun
        ? `${changed} of ${plural(files, "file")} would be updated (--dry-run: nothing written)`
        : `Updated ${changed} of ${plural(files, "file")}`;
  return `${verb}: websites ${counts(s, true)}${leftOut(s)}.`;
}

function counts(s: UpdateSummary, unmanaged: boolean): string {
  return [
    `${s.updated.length} updated`,
    `${s.added.length} added`,
    `${s.removed.length} removed`,
    ...(s.restored.length ? [`${s.restored.length} restored`] : []),
    ...(unmanaged ? [`${s.unmanaged.length} unmanaged`] : []),
  ].join(", ");
}

function leftOut(s: UpdateSummary): string {
  const unmanaged = s.unmanaged.length ? "; --add-unlisted adds the unmanaged websites" : "";
  const projects = s.projectChanges
    ? `; the plan still holds ${plural(s.projectChanges, "project change")} (projects are never adopted)`
    : "";
  return `${unmanaged}${projects}`;
}

/** The files' summaries as one, with what no file says: the websites no file lists, the project changes. */
function sum(summaries: readonly UpdateSummary[], many: Pick<Adopted, "unmanaged" | "projectChanges">): UpdateSummary {
  return {
    updated: summaries.flatMap((s) => s.updated),
    added: summaries.flatMap((s) => s.added),
    removed: summaries.flatMap((s) => s.removed),
    restored: summaries.flatMap((s) => s.restored),
    unmanaged: many.unmanaged,
    projectChanges: many.projectChanges,
  };
}

function colorDiff(diff: string): string {
  const c = createColors(true);
  return diff
    .split("\n")
    .map((line) => {
      if (line.startsWith("+++") || line.startsWith("---")) return c.bold(line);
      if (line.startsWith("+")) return c.green(line);
      if (line.startsWith("-")) return c.red(line);
      if (line.startsWith("@@")) return c.cyan(line);
      return line;
    })
    .join("\n");
}
