/** `apply --verify`: plan again against a fresh read; whatever is still planned did not converge. */
import type { Client } from "../api/types.ts";
import type { Config } from "../config/types.ts";
import type { Io } from "./_io.ts";
import { type PlanSettings, planFromConfig } from "../pipeline.ts";
import { changeLine } from "../render/index.ts";

/** Prints every change that a re-read still finds (an API that rewrites a value) and returns how many. */
export async function verifyConvergence(config: Config, client: Client, settings: PlanSettings, io: Io): Promise<number> {
  const again = await planFromConfig(config, client, { ...settings, syncWriteOnly: false });
  if (again.changes.length === 0) {
    io.err("Verified: the account matches the configuration.");
    return 0;
  }
  io.err(`Verify: ${again.changes.length} change${again.changes.length === 1 ? "" : "s"} did not converge:`);
  for (const change of again.changes) io.err(`  ${changeLine(change, { fields: "values" })}`);
  return again.changes.length;
}
