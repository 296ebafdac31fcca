import { createRedactor, type Redactor } from "../api/redact.ts";
import { SENSITIVE } from "../plan/types.ts";

/**
 * Secrets shorter than this are never replaced in text, only kept out structurally (DESIGN §12): a password
 * like `shop` replaced inside `shop.example.com` would print `(sensitive).example.com` and so reveal itself.
 * Keys are long random tokens; a password this long is not also a word of a domain by chance.
 */
const MIN_REPLACED_LENGTH = 12;

/**
 * The redactor of one CLI or Action run: every secret it knows, whatever its length, is withheld from what a
 * server says; long ones also read as `(sensitive)` wherever they would be printed or published, and go to
 * `onSecret` (the Action's `core.setSecret`) the moment they are known.
 */
export function createRunRedactor(onSecret?: (value: string) => void): Redactor {
  return createRedactor({ mask: SENSITIVE, minLength: MIN_REPLACED_LENGTH, ...(onSecret ? { onSecret } : {}) });
}
