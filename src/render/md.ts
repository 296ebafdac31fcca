/**
 * The one Markdown escaper of every Markdown output (plan, results, the Action's comment and summary): a name
 * or message from the account or the config must never break a table or turn into markup.
 */

import { printable } from "../model/printable.ts";

/**
 * Escapes what would break a table or turn into markup: `|`, `<`, backticks, emphasis and links; newlines
 * read as spaces, other control characters as escapes (`\e`), so nothing can start a line of its own.
 */
export function md(text: string): string {
  return printable(text.replace(/\r?\n/g, " "))
    .replace(/[\\`*_[\]|#]/g, "\\$&")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replace(/\r?\n/g, " ");
}
