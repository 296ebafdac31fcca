/**
 * The few PHP and MySQL semantics the real API inherits and a client can observe: loose truthiness,
 * `is_numeric`, `FILTER_VALIDATE_INT`, json_encode's escaping, http_build_query and LIKE.
 */

/** PHP truthiness: `"0"` and `""` are false, the string `"false"` is true (API-NOTES §2.5). */
export function phpTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") return value !== "" && value !== "0";
  if (Array.isArray(value)) return value.length > 0;
  // A JSON object is a PHP array: empty is false.
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

/** PHP 8 `is_numeric`. */
export function isNumeric(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  return typeof value === "string" && NUMERIC.test(value);
}

const INT64_MAX = 9223372036854775807n;

/** PHP `filter_var($v, FILTER_VALIDATE_INT)`: the integer, or null when it fails (Laravel's `integer` rule). */
export function filterInt(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) ? value : null;
  if (value === true) return 1;
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  if (!/^[+-]?(0|[1-9]\d*)$/.test(trimmed)) return null;
  const big = BigInt(trimmed);
  return big > INT64_MAX || big < -INT64_MAX - 1n ? null : Number(big);
}

/** PHP `==` between a request value and an integer (PHP 8 rules), as `in_array` and `==` use it. */
export function looseEqualsInt(value: unknown, n: number): boolean {
  if (value === null || value === undefined) return n === 0;
  if (typeof value === "boolean") return value === (n !== 0);
  if (typeof value === "number") return value === n;
  if (typeof value === "string") return isNumeric(value) ? Number(value.trim()) === n : value === String(n);
  return false;
}

/** PHP string conversion of a scalar: `null` and `false` give "", `true` gives "1". */
export function phpString(value: unknown): string {
  if (value === null || value === undefined || value === false) return "";
  if (value === true) return "1";
  if (typeof value === "object") return "Array";
  return String(value);
}

/** `mb_strlen`: characters, not UTF-16 units. */
export function mbStrlen(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** MySQL's string-to-number coercion in `WHERE id = '5abc'`: the leading numeric prefix, else 0 (API-NOTES §2.3). */
export function mysqlNumber(value: string): number {
  const match = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(value);
  return match ? Number(match[0]) : 0;
}

/** `json_encode` with options 0: slashes escaped, non-ASCII as lowercase `\uXXXX` (API-NOTES §1). */
export function phpJson(value: unknown): string {
  return JSON.stringify(value).replace(/[/\u0080-\uffff]/g, (c) =>
    c === "/" ? "\\/" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** `rawurlencode`: RFC 3986, so `!'()*` are encoded too. */
function rawUrlEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `http_build_query($q, '', '&', PHP_QUERY_RFC3986)`: null values are dropped, order is kept. */
export function buildQuery(pairs: ReadonlyArray<readonly [string, unknown]>): string {
  return pairs
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => `${rawUrlEncode(key)}=${rawUrlEncode(typeof value === "boolean" ? (value ? "1" : "0") : phpString(value))}`)
    .join("&");
}

/** `rawurldecode`: invalid escapes are kept as they are instead of throwing. */
export function rawUrlDecode(value: string): string {
  return value.replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return Buffer.from(run.replaceAll("%", ""), "hex").toString("latin1");
    }
  });
}

/**
 * A matcher for MySQL `column LIKE '%value%'` under a case-insensitive collation. The app does not escape
 * the search value (API-NOTES §2.2), so `%` and `_` stay wildcards and `\` escapes the next character of the
 * pattern it builds, `'%' . $value . '%'`: a value ending in `\` escapes that closing `%`, which then matches a
 * literal `%` at the end. Characters, not UTF-16 units: `_` matches one character of a utf8mb4 column.
 */
export function likeContains(value: string): (subject: string) => boolean {
  const pattern = [...`%${value}%`];
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\" && i + 1 < pattern.length) source += escapeRegExp(pattern[++i]!);
    else if (c === "%") source += ".*";
    else if (c === "_") source += ".";
    else source += escapeRegExp(c);
  }
  const regex = new RegExp(`^${source}$`, "isu");
  return (subject) => regex.test(subject);
}

function escapeRegExp(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
