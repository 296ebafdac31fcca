/**
 * The one Markdown escaper of every Markdown output (plan, results, the Action's comment and summary): a name
 * or message from the account or the config must never break a table or turn into markup.
 */

/** Escapes what would break a table or turn into markup: `|`, `<`, backticks, emphasis and links; no newlines. */
export function md(text: string): string {
  return text
    .replace(/[\\`*_[\]|#]/g, "\\$&")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replace(/\r?\n/g, " ");
}
