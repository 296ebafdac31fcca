/**
 * The one redactor: keeps secrets (keys, passwords) out of every message, log line, error body, job summary
 * and comment. The API client scrubs what it builds (mask `***`); the CLI and the Action redact everything
 * they print or publish (`(sensitive)`), the Action also registering each secret with the runner's log
 * masking through `onSecret`. A secret never reaches the output of a run that saw it.
 */

export interface Redactor {
  /** Registers values as secrets: `onSecret` sees each one, `redact` removes it from now on. */
  add(values: Iterable<string | undefined>): void;
  redact(text: string): string;
  /**
   * `value` as indented JSON with every string redacted before JSON escapes it: a secret holding `"` or `\`
   * would no longer be found in the escaped text (a server may echo a submitted password: DESIGN §12).
   */
  json(value: unknown): string;
}

export interface RedactorOptions {
  /** What a secret is replaced with. */
  mask: string;
  /** Shorter secrets are not searched for: redacting every "a" would garble the output. */
  minLength: number;
  /** Called with every non-empty value given to `add`, however short (the runner's `::add-mask::`). */
  onSecret?: (value: string) => void;
}

export function createRedactor(options: RedactorOptions, initial: Iterable<string | undefined> = []): Redactor {
  const secrets = new Set<string>();
  const redactor: Redactor = {
    add(values) {
      for (const value of values) {
        if (!value) continue;
        options.onSecret?.(value);
        if (value.length >= options.minLength) secrets.add(value);
      }
    },
    redact(text) {
      let result = text;
      for (const secret of secrets) result = result.replaceAll(secret, options.mask);
      return result;
    },
    json(value) {
      return JSON.stringify(value, (_key, v: unknown) => (typeof v === "string" ? redactor.redact(v) : v), 2);
    },
  };
  redactor.add(initial);
  return redactor;
}

const API_MASK = { mask: "***", minLength: 1 } as const;

/** The URL with any `api_token` query value masked (API-NOTES §1: the API also reads the key from there). */
export function redactUrl(url: string | URL): string {
  return String(url).replace(/([?&]api_token=)[^&#]*/gi, `$1${API_MASK.mask}`);
}

/** `text` with every occurrence of every secret masked. */
export function scrub(text: string, secrets: readonly string[]): string {
  return createRedactor(API_MASK, secrets).redact(text);
}

/** A JSON-like value with every secret masked in its strings. */
export function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (value === undefined) return undefined;
  const json = JSON.stringify(value);
  if (json === undefined) return undefined;
  const clean = scrub(json, secrets);
  return clean === json ? value : (JSON.parse(clean) as unknown);
}
