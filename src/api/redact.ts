/**
 * The one redactor: keeps secrets (keys, passwords, values read from the environment) out of every message,
 * log line, error body, job summary and comment (DESIGN §12). Two steps, in this order:
 *
 * - Structural: our own strings never hold a secret (plans show `(sensitive)`), and free text from a server
 *   (an error message, a 422 field message, a body) is `withhold`-ed whole when it repeats any secret of the
 *   run, however short, also URL-, JSON- or HTML-encoded. Values we produce (domains, field names) are never
 *   edited: replacing a password inside `shop.example.com` would tell that the password is `shop`.
 * - A last line of defence, `redact`: every output is searched for the long secrets only (a key, a long
 *   password) and each is replaced. A short one would garble the output and reveal itself by its effect.
 *
 * `onSecret` (the Action's `core.setSecret`) sees the long secrets too: the runner masks by replacement as well.
 */

import { repeatsSecret } from "../model/repeats-secret.ts";

export { repeatsSecret };

export interface Redactor {
  /** Registers values as secrets: `withhold` knows each from now on, `redact` and `onSecret` the long ones. */
  add(values: Iterable<string | undefined>): void;
  /** `text` with each long secret replaced: the last line of defence of every output. */
  redact(text: string): string;
  /**
   * `value` as indented JSON with every string redacted before JSON escapes it: a secret holding `"` or `\`
   * would no longer be found in the escaped text (a server may echo a submitted password: DESIGN §12).
   */
  json(value: unknown): string;
  /**
   * Free text from a server, or a fixed note when it repeats a secret of the run. `ours` are values the run
   * sent or produced itself (a domain, a field name): a secret found only inside one of them is no echo.
   */
  withhold(text: string, ours?: readonly string[]): string;
  /** Every secret registered so far, whatever its length. */
  secrets(): readonly string[];
}

export interface RedactorOptions {
  /** What a long secret is replaced with. */
  mask: string;
  /** Secrets shorter than this are not replaced in text (nor given to `onSecret`): only withheld. */
  minLength: number;
  /** Called once with every secret long enough to be replaced (the runner's `::add-mask::`). */
  onSecret?: (value: string) => void;
}

/** What a server's text reads as when it repeats a secret. */
export const WITHHELD = "(the server's message was withheld: it repeats a value sent as a secret)";

export function createRedactor(options: RedactorOptions, initial: Iterable<string | undefined> = []): Redactor {
  const secrets = new Set<string>();
  // Longest first, so that a secret holding another is replaced whole.
  let long: string[] = [];
  const redactor: Redactor = {
    add(values) {
      for (const value of values) {
        if (!value || secrets.has(value)) continue;
        secrets.add(value);
        if (value.length < options.minLength) continue;
        options.onSecret?.(value);
        long = [...long, value].sort((a, b) => b.length - a.length);
      }
    },
    redact(text) {
      let result = text;
      for (const secret of long) result = result.replaceAll(secret, () => options.mask);
      return result;
    },
    json(value) {
      return JSON.stringify(value, (_key, v: unknown) => (typeof v === "string" ? redactor.redact(v) : v), 2);
    },
    withhold: (text, ours = []) => (repeatsSecret(text, secrets, ours) ? WITHHELD : text),
    secrets: () => [...secrets],
  };
  redactor.add(initial);
  return redactor;
}

/** A JSON-like value from a server, or the WITHHELD note in its place when any of its text repeats a secret. */
export function withholdValue(value: unknown, secrets: Iterable<string>, ours: readonly string[] = []): unknown {
  if (value === undefined) return undefined;
  const json = JSON.stringify(value);
  return json !== undefined && repeatsSecret(json, secrets, ours) ? WITHHELD : value;
}

const API_MASK = { mask: "***", minLength: 1 } as const;

/** The URL with any `api_token` query value masked (API-NOTES §1: the API also reads the key from there). */
export function redactUrl(url: string | URL): string {
  return String(url).replace(/([?&]api_token=)[^&#]*/gi, `$1${API_MASK.mask}`);
}

/** `text` with every occurrence of every key masked. */
export function scrub(text: string, secrets: readonly string[]): string {
  return createRedactor(API_MASK, secrets).redact(text);
}
