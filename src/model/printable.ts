/**
 * The one escaper of human output (DESIGN §12): a name or message from the account, a server or the
 * config never moves the cursor, erases a line, starts a new one or turns the text around. Applied per field,
 * never to whole lines, since our own newlines are legitimate.
 */

// C0 (newlines included), DEL, C1, the Unicode line separators, U+FFF9 to U+FFFF, and every character Unicode
// says shows as nothing (Default_Ignorable_Code_Point: a zero-width space, a byte order mark, a soft hyphen, the
// bidirectional marks, overrides and isolates, variation selectors, fillers, tag characters): `"email\u200b"` in
// "unknown key" says why a key that reads `email` is unknown.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufff9-\uffff]|\p{Default_Ignorable_Code_Point}/gu;
const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\u001b": "\\e" };

/** `text` with each control character written as an escape (`\n`, `\e`, `\x07`, `\u202e`): visible, inert. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => NAMED[char] ?? escapeCode(char.codePointAt(0) as number));
}

function escapeCode(code: number): string {
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, "0")}` : `\\u{${code.toString(16)}}`;
}
