import { createRedactor, type Redactor } from "../api/redact.ts";
import { SENSITIVE } from "../plan/types.ts";

/** Secrets shorter than this are not searched for in output: redacting every "a" would garble it. */
const MIN_SECRET_LENGTH = 4;

/**
 * The redactor of one CLI or Action run: every secret printed or published reads as `(sensitive)`, as in a
 * plan. `onSecret` sees every secret the moment it is known (the Action's `core.setSecret`).
 */
export function createRunRedactor(onSecret?: (value: string) => void): Redactor {
  return createRedactor({ mask: SENSITIVE, minLength: MIN_SECRET_LENGTH, ...(onSecret ? { onSecret } : {}) });
}
