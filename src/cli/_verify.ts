/** `apply --verify`: the changes a fresh plan still finds after applying did not converge. */
import { SENSITIVE, type Change, type FieldValue } from "../plan/types.ts";
import type { Io } from "./_io.ts";

/** Prints every change that a re-read still finds (an API that rewrites a value). */
export function printVerification(unconverged: readonly Change[], io: Io): void {
  if (unconverged.length === 0) {
    io.err("Verified: the account matches the configuration.");
    return;
  }
  io.err(`Verify: ${unconverged.length} change${unconverged.length === 1 ? "" : "s"} did not converge:`);
  for (const change of unconverged) io.err(`  ${describe(change)}`);
}

function describe(change: Change): string {
  if (change.kind === "project") return `project ${change.project} still exists`;
  if (change.action === "create") return `${change.domain} does not exist`;
  if (change.action === "delete") return `${change.domain} still exists`;
  const fields = change.fields.map((f) => `${f.field} is ${show(f.before)}, wanted ${show(f.after)}`);
  return `${change.domain}: ${fields.join("; ")}`;
}

function show(value: FieldValue): string {
  if (value === SENSITIVE) return SENSITIVE;
  return Array.isArray(value) ? `[${value.join(", ")}]` : String(value);
}
