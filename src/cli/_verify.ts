/** `apply --verify`: plan again against a fresh read; whatever is still planned did not converge. */
import type { Client } from "../api/types.ts";
import type { Config } from "../config/types.ts";
import { SENSITIVE, type Change, type FieldValue } from "../plan/types.ts";
import type { Io } from "./_io.ts";
import { type PlanSettings, planFromConfig } from "../pipeline.ts";

/** Prints every change that a re-read still finds (an API that rewrites a value) and returns how many. */
export async function verifyConvergence(config: Config, client: Client, settings: PlanSettings, io: Io): Promise<number> {
  const again = await planFromConfig(config, client, { ...settings, syncWriteOnly: false });
  if (again.changes.length === 0) {
    io.err("Verified: the account matches the configuration.");
    return 0;
  }
  io.err(`Verify: ${again.changes.length} change${again.changes.length === 1 ? "" : "s"} did not converge:`);
  for (const change of again.changes) io.err(`  ${describe(change)}`);
  return again.changes.length;
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
