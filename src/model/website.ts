/**
 * The canonical website: one shape for what the API returns (Live) and what the config asks for (Desired),
 * so that `plan` compares like with like (DESIGN §1, §4).
 */
import type { ReadableFields, WebsiteFields } from "./website-fields.ts";

/**
 * A website as the API holds it, in canonical types (every number a number, flags booleans, lists arrays).
 * The managed fields are those of `WEBSITE_FIELDS` that the API returns.
 */
export interface LiveWebsite extends ReadableFields {
  id: number;
  domain: string;
  /** Whether a password is stored; the password itself is never returned (API-NOTES §2.1). */
  password: boolean;
  favorited_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Where a config entry was written, for diagnostics and annotations. */
export interface SourcePos {
  file: string;
  line: number;
  column: number;
}

export interface DesiredWebsite extends WebsiteFields {
  /** Normalized (see `normalizeDomain`). */
  domain: string;
  /** `absent` is a tombstone: delete explicitly, without prune. */
  state: "present" | "absent";
  source?: SourcePos;
  /**
   * `password_version` as text (`2` and `"2"` are one marker): the rotation marker (DESIGN §2). Config only,
   * like Terraform's `*_wo_version`: never sent, never compared with the account, only between two versions
   * of the file (src/change). Not a `WEBSITE_FIELDS` row, since every row is a field of the API.
   */
  passwordVersion?: string;
  /**
   * The password as the file writes it, when that is not the password itself: `${VAR}` (or text around
   * one). A change compares what is written, never a value read from the environment (DESIGN §3), so a
   * base revision is compared without its secrets. Never shown.
   */
  passwordRef?: string;
}

/** Lowercase labels of letters, digits and `-` joined by dots, not starting with `www.`: what normalizing keeps as it is. */
const STORED_FORM = /^(?!www\.)[a-z0-9-]+(?:\.[a-z0-9-]+)*$/;

/**
 * The domain as the API stores it (API-NOTES §2.4): lowercase, no `http://`/`https://` anywhere, every `www.`
 * removed when it starts with `www.`; then a trailing `/` and `.` are dropped (DESIGN §4).
 */
export function normalizeDomain(input: string): string {
  // Most domains are written as stored already: one test instead of five copies (DESIGN §8: 100,000 a load).
  if (STORED_FORM.test(input)) return input;
  let d = input.trim().toLowerCase().replaceAll("https://", "").replaceAll("http://", "");
  if (d.startsWith("www.")) d = d.replaceAll("www.", "");
  // A loop, not /[/.]+$/: that regex is quadratic on a long run of dots that does not end the name (DESIGN §12).
  let end = d.length;
  while (end > 0 && (d[end - 1] === "/" || d[end - 1] === ".")) end--;
  return d.slice(0, end);
}

/**
 * The domain rule of StoreWebsiteRequest (API-NOTES §2.4), applied by the API after its pre-processing:
 *
 *     ^(?!:\/\/)(?=.{1,255}$)((.{1,63}\.){1,127}(?![0-9]*$)[a-z0-9-]+\.?)$
 *     |^((25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)(\.|$)){4}$          (case-insensitive)
 *
 * A name needs a dot (so `localhost` fails) unless it is an IPv4 address. The same meaning as that regex,
 * checked label by label: the regex backtracks exponentially on a crafted name (DESIGN §12), this is linear.
 */
export function isApiDomain(domain: string): boolean {
  return isDomainName(domain) || isDottedQuad(domain);
}

/**
 * Most names at once: labels of 1 to 63 letters, digits and `-`, at least two, the last not all digits. Each
 * is one of the regex's pieces, and 255 characters hold fewer than 127 of them. Linear: a dot ends each label.
 */
const PLAIN_NAME = /^(?:[a-z0-9-]{1,63}\.)+(?![0-9]*$)[a-z0-9-]+$/i;

/** What `.` does not match in a JavaScript regex (the `s` flag is off). */
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;
const LAST_LABEL = /^[a-z0-9-]+$/i;

/**
 * The first alternative, on at most 255 characters (so every step below is bounded). `(.{1,63}\.){1,127}` is
 * a prefix ending in a dot that can be cut after dots into 1 to 127 pieces of 2 to 64 characters (dots may
 * sit inside a piece); then the last label (letters, digits, `-`), not all digits unless a final dot follows.
 */
function isDomainName(name: string): boolean {
  if (name.length <= 255 && PLAIN_NAME.test(name)) return true;
  if (name.startsWith("://") || name.length < 1 || name.length > 255 || LINE_TERMINATOR.test(name)) return false;
  const body = name.endsWith(".") ? name.slice(0, -1) : name;
  const dot = body.lastIndexOf(".");
  if (dot < 0) return false;
  const label = body.slice(dot + 1);
  if (!LAST_LABEL.test(label) || (body === name && /^[0-9]+$/.test(label))) return false;
  // Labels of 1 to 63 characters, at most 127 of them, are such pieces themselves: most names, at once.
  const labels = body.slice(0, dot).split(".", 128);
  if (labels.length <= 127 && labels.every((piece) => piece.length >= 1 && piece.length <= 63)) return true;
  // fewest[k]: the fewest pieces that cover body[0, k), for k = 0 or just after a dot.
  const fewest = Array.from({ length: dot + 2 }, (_, k) => (k === 0 ? 0 : Infinity));
  for (let end = 2; end <= dot + 1; end++) {
    if (body[end - 1] !== ".") continue;
    for (let length = 2; length <= Math.min(64, end); length++) fewest[end] = Math.min(fewest[end]!, fewest[end - length]! + 1);
  }
  return fewest[dot + 1]! <= 127;
}

/** The second alternative: four numbers of 0 to 255 (one to three digits) joined by dots, a final dot allowed. */
function isDottedQuad(name: string): boolean {
  const parts = (name.endsWith(".") ? name.slice(0, -1) : name).split(".");
  return parts.length === 4 && parts.every((part) => /^[0-9]{1,3}$/.test(part) && Number(part) <= 255);
}

/** Splits a stored one-per-line list the way the tracker does (`preg_split('/\n|\r/')`, empties dropped). */
export function splitLines(value: string | null | undefined): string[] {
  if (!value) return [];
  const lines: string[] = [];
  // One trim and no intermediate list per line: a listing of 100,000 websites splits each one's list.
  for (const line of value.split(/[\n\r]/)) {
    const entry = line.trim();
    if (entry !== "") lines.push(entry);
  }
  return lines;
}
