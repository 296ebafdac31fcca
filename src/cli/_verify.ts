/** `apply --verify`: the changes a fresh plan still finds after applying did not converge. */
import type { Change } from "../plan/types.ts";
import { changeLine } from "../render/index.ts";
import type { Io } from "./_io.ts";

/** Prints every change that a re-read still finds (an API that rewrites a value). */
export function printVerification(unconverged: readonly Change[], io: Io): void {
  if (unconverged.length === 0) {
    io.err("Verified: the account matches the configuration.");
    return;
  }
  io.err(`Verify: ${unconverged.length} change${unconverged.length === 1 ? "" : "s"} did not converge:`);
  for (const change of unconverged) io.err(`  ${changeLine(change, { fields: "values" })}`);
}
