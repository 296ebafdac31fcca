/**
 * Reading a config's text where js-yaml's listener leaves off (fast-yaml.ts): where a node's content starts,
 * past spaces, comments, an anchor and a tag. Pure functions of the text.
 */

export interface TextAt {
  at: number;
  /** 1-based. */
  line: number;
  column: number;
}

/**
 * What the whole text says that js-yaml and `yaml` may read differently, the root node starting at `rootAt`:
 * a directive before it (`%YAML 1.1` reads yes as true), a mapping on the `---` line (which `yaml` refuses), or
 * a `---` with no space after it (`---#`: a document start and a comment to js-yaml, a key's text to `yaml`);
 * or, in a file with a `|+` block, a last line of blanks with no line break (js-yaml keeps one line more).
 */
export function wholeText(text: string, rootAt: number): { line: number; column: number; why: "head" | "end" } | undefined {
  // A byte order mark is no character of the first line's.
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const head = rootAt > bom ? text.slice(bom, rootAt) : "";
  const directive = /^%|^---[^\s]/m.test(head);
  const rootLine = Math.max(bom, text.lastIndexOf("\n", rootAt - 1) + 1);
  if (directive || (rootAt > bom && text.startsWith("---", rootLine) && rootLine < rootAt)) return { line: 1, column: 1, why: "head" };
  const keeps = /\n[ \t]+$/.test(text.slice(-256)) && /[|>][1-9]?\+/.test(text);
  return keeps ? { line: lineBreaks(text) + 1, column: 1, why: "end" } : undefined;
}

/**
 * Whether a block or plain value over several lines, from `at` to `end` and the blank and comment lines after
 * it, holds such a line with a tab before its `#` or its end: js-yaml reads it as empty, `yaml` refuses it or
 * reads another value.
 */
export function tabBlankLine(text: string, at: number, end: number): boolean {
  const blanks = /(?:[ \t]*(?:#[^\n]*)?(?:\r?\n|$))*/y;
  blanks.lastIndex = end;
  blanks.test(text);
  const tab = text.indexOf("\t", at);
  return (
    tab !== -1 && tab < blanks.lastIndex && /\n[ \t]*\t[ \t]*(?:[\r\n#]|$)/.test(text.slice(Math.max(0, at - 1), blanks.lastIndex + 1))
  );
}

/**
 * Whether the node that starts at `start` and ends at `end` is a quoted scalar or a flow collection over
 * several lines: js-yaml reads its lines however they are indented, `yaml` refuses those indented less than
 * their parent; and they keep different line breaks after an escaped one (`"abc\` then an empty line). Or a
 * block scalar with an indentation indicator (`|2-`): the two keep a line of spaces deeper than it apiece
 * (`" x\n "` and `" x"`), which in a password is another password.
 */
export function quotedOrFlowOverLines(text: string, start: TextAt, end: number, kind: string | null): boolean {
  let { at } = start;
  let ch = text.charCodeAt(at);
  if (ch === 0x26 || ch === 0x21) {
    at = pastProperties(text, start).at;
    ch = text.charCodeAt(at);
  }
  // A block mapping may start with a quoted key: only a scalar is a quoted scalar.
  const scalar = kind === "scalar";
  if (scalar && (ch === 0x7c || ch === 0x3e) /* | > */) return indentIndicator(text, at + 1);
  const quoted = (ch === 0x22 || ch === 0x27) && scalar;
  if (!quoted && ch !== 0x5b && ch !== 0x7b) return false;
  const lineBreak = text.indexOf("\n", at);
  return lineBreak !== -1 && lineBreak < end;
}

/** Whether a block scalar's header, from `at` (past its `|` or `>`), gives an indentation: `|2`, `>-1`, `|+3`. */
function indentIndicator(text: string, at: number): boolean {
  const first = text.charCodeAt(at);
  const digit = first === 0x2d || first === 0x2b /* - + */ ? text.charCodeAt(at + 1) : first;
  return digit >= 0x31 && digit <= 0x39;
}

/**
 * What the whole text holds, each looked for once, so that the fast parse's listener reads a node's own text
 * only where it can matter: of 1.4 million nodes in an export, none.
 */
export interface TextHolds {
  /** A `!`: a node may have a tag. */
  tags: boolean;
  /** A backslash: an escape may write `${` (`"\x24{VAR}"`). */
  escapes: boolean;
  /** A `&`: an alias needs its anchor, so without one nothing expands. */
  aliasing: boolean;
  /** A key that may have no value node: only written `? key` or inside `{ }` (so never in an export). */
  valueless: boolean;
  /** A `#` right after a `"`, `'`, `]` or `}` (`"x"#c`): a comment to js-yaml, refused by `yaml`. */
  hashAfter: boolean;
  /** A tab: a value over several lines may hold a blank line with one (`tabBlankLine`). */
  tabs: boolean;
}

export function textHolds(text: string): TextHolds {
  return {
    tags: text.includes("!"),
    escapes: text.includes("\\"),
    aliasing: text.includes("&"),
    valueless: text.includes("?") || opensFlowMap(text),
    hashAfter: hashAfterToken(text),
    tabs: text.includes("\t"),
  };
}

/** Whether a `#` anywhere follows a closing quote or bracket at once; a `#` is rare, so each is looked at. */
function hashAfterToken(text: string): boolean {
  for (let at = text.indexOf("#", 1); at !== -1; at = text.indexOf("#", at + 1)) if (closesToken(text, at - 1)) return true;
  return false;
}

/**
 * Whether a node that js-yaml ended at `end` is a quoted value or a `[list]` or `{map}` with a `#` right after
 * it. A plain value ends at the `#` of ` # note`, a block at the comment line after it: a blank comes first.
 */
export function hashRightAfter(text: string, end: number): boolean {
  return text.charCodeAt(end) === 0x23 /* # */ && closesToken(text, end - 1);
}

function closesToken(text: string, at: number): boolean {
  const ch = text.charCodeAt(at);
  return ch === 0x22 || ch === 0x27 || ch === 0x5d || ch === 0x7d;
}

/** Past the anchor and the tag of a node that starts at `start`, in either order: where its content starts, and whether it has a tag. */
export function pastProperties(text: string, start: TextAt): { at: number; tag: boolean } {
  let { at, line, column } = start;
  let tag = false;
  for (let ch = text.charCodeAt(at); ch === 0x26 /* & */ || ch === 0x21 /* ! */; ch = text.charCodeAt(at)) {
    const lineStart = at - column + 1;
    tag ||= ch === 0x21;
    at = ch === 0x21 && text.charCodeAt(at + 1) === 0x3c /* !< */ ? text.indexOf(">", at) + 1 : propertyEnd(text, at);
    if (at === 0) break;
    ({ at, line, column } = skipSpace(text, at, line - 1, lineStart));
  }
  return { at, tag };
}

export function isBlank(ch: number): boolean {
  return ch === 0x20 || ch === 0x09;
}

/** Where an anchor or a tag (not a verbatim one) that starts at `from` ends: at a space, a line break or a flow indicator. */
function propertyEnd(text: string, from: number): number {
  let at = from + 1;
  for (let ch = text.charCodeAt(at); at < text.length && !isPropertyEnd(ch); ch = text.charCodeAt(++at));
  return at;
}

function isPropertyEnd(ch: number): boolean {
  return isBlank(ch) || ch === 0x0a || ch === 0x0d || ch === 0x2c || ch === 0x5b || ch === 0x5d || ch === 0x7b || ch === 0x7d;
}

/** A scalar written as itself: not an alias, a tag or an anchor before it, nor an empty value. */
export function isScalarStart(ch: number): boolean {
  return (
    ch !== 0x2a && ch !== 0x26 && ch !== 0x21 && ch !== 0x0a && ch !== 0x0d && ch !== 0x23 && ch !== 0x2c && ch !== 0x7d && ch !== 0x5d
  );
}

/** The first character of a node from where js-yaml opens it: past spaces, line breaks and comments. */
export function skipSpace(text: string, from: number, line: number, lineStart: number): TextAt {
  let at = from;
  for (;;) {
    const ch = text.charCodeAt(at);
    if (ch === 0x20 || ch === 0x09) at++;
    else if (ch === 0x0a || (ch === 0x0d && text.charCodeAt(at + 1) !== 0x0a)) {
      at++;
      line++;
      lineStart = at;
    } else if (ch === 0x0d) at++;
    else if (ch === 0x23 /* # */ && (at === lineStart || isBlank(text.charCodeAt(at - 1)))) {
      while (at < text.length && text.charCodeAt(at) !== 0x0a && text.charCodeAt(at) !== 0x0d) at++;
    } else break;
  }
  return { at, line: line + 1, column: at - lineStart + 1 };
}

/** A `-` alone on its line (a comment aside), its indentation in group 1. */
const DASH_LINE = /^([ \t]*)-[ \t]*(?:#[^\n]*)?\r?$/gm;

/**
 * Where the first `-` between `from` (a node's start) and `to` is whose item is empty, the next line no deeper
 * (js-yaml opens no node for it), or undefined.
 */
export function emptyItem(text: string, from: TextAt, to: number): TextAt | undefined {
  DASH_LINE.lastIndex = from.at;
  for (let found = DASH_LINE.exec(text); found !== null && found.index < to; found = DASH_LINE.exec(text)) {
    const indent = (found[1] as string).length;
    const after = found.index + found[0].length;
    const next = /^[ \t]*(?=\S)/m.exec(text.slice(after, after + 4096));
    if (next === null || next[0].length <= indent) return lineOf(text, from, found.index + indent);
    if (DASH_LINE.lastIndex === found.index) DASH_LINE.lastIndex++;
  }
  return undefined;
}

/** The line and column of `offset`, counted on from a known place before it. */
function lineOf(text: string, from: TextAt, offset: number): TextAt {
  let { line } = from;
  let lineStart = from.at - from.column + 1;
  for (let i = text.indexOf("\n", from.at); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { at: offset, line, column: offset - lineStart + 1 };
}

/** Whether some `{` of the text may open a flow mapping, not being a `${`: an export's only one is its header's `${VARIABLE}`. */
function opensFlowMap(text: string): boolean {
  for (let at = text.indexOf("{"); at !== -1; at = text.indexOf("{", at + 1)) if (text.charCodeAt(at - 1) !== 0x24) return true;
  return false;
}

/** The offset of the quote that opens a quoted scalar never closed, scanning as YAML does (comments, escapes). */
export function unclosedQuote(text: string): number | undefined {
  let open: { quote: string; at: number } | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (open) {
      if (open.quote === '"' && ch === "\\") i++;
      else if (open.quote === "'" && ch === "'" && text[i + 1] === "'") i++;
      else if (ch === open.quote) open = undefined;
    } else if (ch === "#" && (i === 0 || /\s/.test(text[i - 1]!))) {
      while (i < text.length && text[i] !== "\n") i++;
    } else if ((ch === '"' || ch === "'") && opensQuoted(text, i)) {
      open = { quote: ch, at: i };
    }
  }
  return open?.at;
}

/**
 * Whether the quote at `at` opens a quoted value: right after `:`, `-`, `[`, `{` or `,`; or after blanks that
 * follow a line's start, one of those, `?`, or an anchor or a tag. In `rock 'n roll` it is the text's own.
 */
function opensQuoted(text: string, at: number): boolean {
  let before = at - 1;
  while (before >= 0 && (text[before] === " " || text[before] === "\t")) before--;
  if (before < 0 || text[before] === "\n" || text[before] === "\r" || ":-[{,".includes(text[before] as string)) return true;
  if (before === at - 1) return false;
  if (text[before] === "?") return true;
  let property = before;
  while (property > 0 && !/\s/.test(text[property - 1] as string)) property--;
  return (text[property] === "&" || text[property] === "!") && opensQuoted(text, property);
}

/**
 * Whether a key from `at` to `end` is written over 1,024 characters up to its `:`, past which `yaml` refuses an
 * implicit key. Most keys end at their `:`, and are told by their length alone.
 */
export function longKey(text: string, at: number, end: number): boolean {
  let colon = end;
  if (text.charCodeAt(colon) !== 0x3a /* : */) while (text.charCodeAt(colon) === 0x20 || text.charCodeAt(colon) === 0x09) colon++;
  return colon - at > 1024;
}

/** The quote never closed, when a parse failed on the text's last line (1-based `line`), where that is told. */
export function unclosedAtEnd(text: string, line: number): number | undefined {
  return line > lineBreaks(text, line) ? unclosedQuote(text) : undefined;
}

/** The line breaks of `text`, up to `most`: the last line's number, 0-based. */
function lineBreaks(text: string, most = Number.POSITIVE_INFINITY): number {
  let breaks = 0;
  for (let at = text.indexOf("\n"); at !== -1 && breaks < most; at = text.indexOf("\n", at + 1)) breaks++;
  return breaks;
}
