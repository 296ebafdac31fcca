/** Whether a change would send a secret the config does not set (`needs`: DESIGN §2), for apply and the renderers. */
import type { Change, SecretNeed } from "./types.ts";

/** The secret `change` needs and the config does not give, if any: `apply` refuses such a change. */
export function needsSecret(change: Change): SecretNeed | undefined {
  return change.kind === "website" && change.action !== "delete" ? change.needs : undefined;
}
