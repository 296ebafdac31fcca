/**
 * "This change, in one line": the same words in every output that names a change (the plan's text, apply's
 * progress and results, the Action's annotations, `apply --verify`). Each output picks the parts it needs.
 */
import type { Change } from "../plan/types.ts";
import { DESTROYS, formatValue, printable, REASONS } from "./_values.ts";
import { changeNeedWords } from "./secret-words.ts";

export interface LineOptions {
  /** `website example.com` rather than `example.com` (a project is always `project …`). */
  kind?: boolean;
  /** A delete's reason beside its id: `(id 7, state: absent)`. */
  reason?: boolean;
  /** An update's fields after a colon: their names, or each value before → after. */
  fields?: "names" | "values";
  /** What a delete destroys, and what a change needs that the config does not set, after a colon (DESIGN §2, §3: said loudly). */
  consequence?: boolean;
}

export interface ChangeDescription {
  action: Change["action"];
  /** `example.com`, `example.com (id 7)`, `project example.org (state: absent)`; control characters as `?`. */
  subject: string;
  /** What follows the colon, when the options ask for it. */
  detail?: string;
}

/** The parts of a change's line, for outputs that lay them out (or color them) themselves. */
export function describeChange(change: Change, options: LineOptions = {}): ChangeDescription {
  const facts: string[] = [];
  if (change.kind === "website" && change.action !== "create") facts.push(`id ${change.id}`);
  if (options.reason && change.action === "delete") facts.push(REASONS[change.reason]);
  const name =
    change.kind === "project" ? `project ${printable(change.project)}` : `${options.kind ? "website " : ""}${printable(change.domain)}`;
  const subject = facts.length > 0 ? `${name} (${facts.join(", ")})` : name;
  const detail = detailOf(change, options);
  return detail === undefined ? { action: change.action, subject } : { action: change.action, subject, detail };
}

/** `create example.com`, `update website example.com (id 7): privacy, email`, `delete project example.org`. */
export function changeLine(change: Change, options: LineOptions = {}): string {
  const { action, subject, detail } = describeChange(change, options);
  return `${action} ${subject}${detail === undefined ? "" : `: ${detail}`}`;
}

function detailOf(change: Change, options: LineOptions): string | undefined {
  if (change.action === "delete") return options.consequence ? DESTROYS[change.kind] : undefined;
  const fields = fieldsOf(change, options);
  const need = options.consequence ? changeNeedWords(change) : undefined;
  if (need === undefined) return fields;
  return fields ? `${fields}; ${need}` : need;
}

function fieldsOf(change: Change & { action: "create" | "update" }, options: LineOptions): string | undefined {
  if (change.action === "create" || options.fields === undefined || change.fields.length === 0) return undefined;
  // Names only where values may be sensitive or long; values read as the config writes them.
  if (options.fields === "names") return change.fields.map((f) => f.field).join(", ");
  return printable(change.fields.map((f) => `${f.field} ${formatValue(f.field, f.before)} → ${formatValue(f.field, f.after)}`).join(", "));
}
