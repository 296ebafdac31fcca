/**
 * The one escaper of human output (DESIGN §12): a name or message from the account, a server or the
 * config never moves the cursor, erases a line, starts a new one or turns the text around. Applied per field,
 * never to whole lines, since our own newlines are legitimate.
 */

// C0 (newlines included), DEL, C1, the bidirectional overrides, isolates and marks, the Unicode line separators,
// and the characters that show as nothing (a zero-width space, a byte order mark, a soft hyphen): `"email\u200b"`
// in "unknown key" says why a key that reads `email` is unknown.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\u001b": "\\e" };

/** `text` with each control character written as an escape (`\n`, `\e`, `\x07`, `\u202e`): visible, inert. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => NAMED[char] ?? escapeCode(char.charCodeAt(0)));
}

function escapeCode(code: number): string {
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}
