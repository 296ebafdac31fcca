/** Keeps secrets out of every message, log line and error body (preamble rule; DESIGN §7 `--verbose`). */

const MASK = "***";

/** The URL with any `api_token` query value masked (API-NOTES §1: the API also reads the key from there). */
export function redactUrl(url: string | URL): string {
  const text = String(url);
  return text.replace(/([?&]api_token=)[^&#]*/gi, `$1${MASK}`);
}

/** `text` with every occurrence of every secret masked. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.replaceAll(secret, MASK);
  return out;
}

/** A JSON-like value with every secret masked in its strings. */
export function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (value === undefined) return undefined;
  const json = JSON.stringify(value);
  if (json === undefined) return undefined;
  const clean = scrub(json, secrets);
  return clean === json ? value : (JSON.parse(clean) as unknown);
}
