/**
 * GitHub annotations: config diagnostics at their line (STYLE habit 6: the diagnostic's own fields, not
 * reformatted), and each planned change at the line of its website in the YAML, so a pull request's
 * "Files changed" shows what each edit will do. Deletes are warnings: they destroy statistics; so is a change
 * that needs a secret the config does not set: apply refuses it.
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import * as core from "@actions/core";
import type { ItemResult } from "../apply/types.ts";
import type { Diagnostic } from "../errors.ts";
import { printable } from "../model/printable.ts";
import type { SourcePos } from "../model/website.ts";
import { needsSecret } from "../plan/secret-need.ts";
import type { Change } from "../plan/types.ts";
import { changeLine } from "../render/change-line.ts";

/** GitHub shows 10 annotations of a kind per step and 50 per job; more is only noise in the log. */
const MAX_CHANGE_ANNOTATIONS = 50;

/** A path as the repository names it (annotations, the comment marker): relative to the checkout, with `/`. */
export function workspacePath(file: string, workspace: string): string {
  const rel = relative(workspace, resolve(file));
  const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  return (inside ? rel : file).split(sep).join("/");
}

export function annotateDiagnostics(diagnostics: readonly Diagnostic[], workspace: string): void {
  for (const d of diagnostics) {
    const message = printable(d.path ? `${d.path}: ${d.message}` : d.message);
    const properties = {
      title: `sitesync config ${d.code}`,
      file: workspacePath(d.file, workspace),
      ...(d.line > 0 ? { startLine: d.line, startColumn: d.column } : {}),
    };
    if (d.severity === "error") core.error(message, properties);
    else core.warning(message, properties);
  }
}

/** A change, or a failed change, at the line of its website in the config: on the step, or in a check run. */
export interface ChangeAnnotation {
  level: "notice" | "warning" | "failure";
  title: string;
  message: string;
  file?: string;
  startLine?: number;
  startColumn?: number;
}

/** The annotations of a run's changes, deletes first (they matter most when the list is capped), then its failures. */
export function changeAnnotations(changes: readonly Change[], failed: readonly ItemResult[], workspace: string): ChangeAnnotation[] {
  const ordered = [...changes.filter((c) => c.action === "delete"), ...changes.filter((c) => c.action !== "delete")];
  const planned = ordered.map((change): ChangeAnnotation => {
    // A change apply will refuse for want of a secret is a warning, like a delete: someone must act on it.
    const level = change.action === "delete" || needsSecret(change) ? "warning" : "notice";
    return { level, title: `sitesync ${change.action}`, message: describe(change), ...at(change.source, workspace) };
  });
  const failures = failed.map((item): ChangeAnnotation => {
    const why = item.error?.message ?? "unknown error";
    return {
      level: "failure",
      title: "sitesync apply failed",
      message: `${describe(item.change)} failed: ${printable(why)}`,
      ...at(item.change.source, workspace),
    };
  });
  return [...planned, ...failures];
}

/** The annotations on the step, when no check run holds them: GitHub shows only the first few of a step anyway. */
export function annotateStep(annotations: readonly ChangeAnnotation[], limit = MAX_CHANGE_ANNOTATIONS): void {
  const changes = annotations.filter((a) => a.level !== "failure");
  for (const { level, message, ...properties } of [
    ...changes.slice(0, limit),
    ...annotations.filter((a) => a.level === "failure").slice(0, limit),
  ]) {
    if (level === "failure") core.error(message, properties);
    else if (level === "warning") core.warning(message, properties);
    else core.notice(message, properties);
  }
  if (changes.length > limit) {
    core.notice(`${changes.length - limit} more planned changes are not annotated: the job summary lists them all.`);
  }
}

function at(source: SourcePos | undefined, workspace: string): { file?: string; startLine?: number; startColumn?: number } {
  return source ? { file: workspacePath(source.file, workspace), startLine: source.line, startColumn: source.column } : {};
}

/** Field names only: values may be sensitive, and the summary shows them properly. */
function describe(change: Change): string {
  return changeLine(change, { kind: true, fields: "names", consequence: true });
}
