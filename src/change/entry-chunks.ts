/**
 * Two texts of one config file cut to the website entries in which they differ (DESIGN §3, §8 "Loading"): a
 * change of 3 entries in a 100,000-website file then loads its base from those entries, not the whole file.
 * An entry written the same in both is the same website at both ends, so leaving it out of both changes no
 * touch: the part before the list must be the same text, and no anchor or alias may tie one entry to another.
 */

export interface ReducedTexts {
  base: string;
  now: string;
}

/** An anchor or alias token: `&name` or `*name` after a space, a flow indicator or a line start. */
const ANCHOR = /(?:^|[\s[{,:])[&*][^\s\]},]/m;

/** Whether `text` may hold an anchor or alias; most files hold no `&` or `*` at all, found without a regex. */
function mayAnchor(text: string): boolean {
  return (text.includes("&") || text.includes("*")) && ANCHOR.test(text);
}

/**
 * `base` and `now` with the entries both write alike left out; the last entry of each stays (it holds what
 * follows the list). `undefined` when the files are not written as one block list after the same head.
 */
export function reducedTexts(base: string, now: string): ReducedTexts | undefined {
  const before = entryChunks(base);
  const after = entryChunks(now);
  if (!before || !after || before.head !== after.head || mayAnchor(base) || mayAnchor(now)) return undefined;
  const [baseKept, nowKept] = unmatched(before.chunks.slice(0, -1), after.chunks.slice(0, -1));
  const join = (head: string, kept: string[], last: string | undefined) => [head, ...kept, last ?? ""].join("");
  return { base: join(before.head, baseKept, before.chunks.at(-1)), now: join(after.head, nowKept, after.chunks.at(-1)) };
}

/**
 * The chunks of each side that the other does not write alike, in their order: the multiset difference both
 * ways. Pairs at the same place, counted from the start or from the end, are matched first by comparing
 * text, which leaves an edit or an insertion of a few entries in 100,000 nothing to hash; what is left is
 * matched by a count of each text. Dropping a pair that both sides hold never changes the difference.
 */
function unmatched(before: string[], after: string[]): [string[], string[]] {
  const matched = { before: new Uint8Array(before.length), after: new Uint8Array(after.length) };
  const pair = (i: number, j: number) => {
    if (matched.before[i] || matched.after[j] || before[i] !== after[j]) return;
    matched.before[i] = 1;
    matched.after[j] = 1;
  };
  const shorter = Math.min(before.length, after.length);
  for (let k = 0; k < shorter; k++) pair(k, k);
  for (let k = 1; k <= shorter; k++) pair(before.length - k, after.length - k);
  const left = {
    before: before.filter((_, i) => matched.before[i] === 0),
    after: after.filter((_, j) => matched.after[j] === 0),
  };
  const counts = new Map<string, number>();
  for (const chunk of left.after) counts.set(chunk, (counts.get(chunk) ?? 0) + 1);
  const common = new Map<string, number>();
  const baseKept: string[] = [];
  for (const chunk of left.before) {
    const count = counts.get(chunk) ?? 0;
    if (count === 0) baseKept.push(chunk);
    else {
      counts.set(chunk, count - 1);
      common.set(chunk, (common.get(chunk) ?? 0) + 1);
    }
  }
  const nowKept: string[] = [];
  for (const chunk of left.after) {
    const shared = common.get(chunk) ?? 0;
    if (shared === 0) nowKept.push(chunk);
    else common.set(chunk, shared - 1);
  }
  return [baseKept, nowKept];
}

/**
 * The text before the root's block `websites:` list's first entry, and each entry's lines (from its `- ` line
 * to the next one's; the last runs to the end of the text). Only a line less indented than the entries, or
 * as indented without a `-`, ends the list, as YAML reads a block sequence.
 */
export function entryChunks(text: string): { head: string; chunks: string[] } | undefined {
  const key = /^websites:[ \t]*(?:#[^\r\n]*)?\r?\n/m.exec(text);
  if (!key) return undefined;
  const firstLine = /^( *)([^ \r\n#])/gm;
  firstLine.lastIndex = key.index + key[0].length;
  const first = firstLine.exec(text);
  if (first?.[2] !== "-") return undefined;
  const dash = (first[1] ?? "").length;
  const starts = onlyLineFeeds(text) ? entryStartsAfterLineFeeds(text, first.index, dash) : entryStarts(text, first.index, dash);
  if (starts[0] !== first.index) return undefined;
  const chunks = starts.map((start, i) => text.slice(start, starts[i + 1] ?? text.length));
  return { head: text.slice(0, first.index), chunks };
}

/** Whether every line of `text` ends with `\n` alone: JavaScript's `^` then starts a line only after one. */
function onlyLineFeeds(text: string): boolean {
  return !text.includes("\r") && !text.includes("\u2028") && !text.includes("\u2029");
}

/** Where each entry of the list starts, by the regexes of the rule (any line break JavaScript knows). */
function entryStarts(text: string, from: number, dash: number): number[] {
  const ending = new RegExp(`^(?:${dash > 0 ? ` {0,${dash - 1}}[^ \\r\\n#]|` : ""} {${dash}}[^ \\r\\n#-])`, "gm");
  ending.lastIndex = from;
  const end = ending.exec(text)?.index ?? text.length;
  const entry = new RegExp(`^ {${dash}}-(?:[ \\t]|\\r?$)`, "gm");
  const starts: number[] = [];
  entry.lastIndex = from;
  for (let found = entry.exec(text); found && found.index < end; found = entry.exec(text)) starts.push(found.index);
  return starts;
}

/**
 * The same starts in a text whose lines all end with `\n` (nearly every file): each scan looks for a line
 * feed first, which a 100,000-website file takes at about twice the speed of a `^` that may match anywhere.
 */
function entryStartsAfterLineFeeds(text: string, from: number, dash: number): number[] {
  const ending = new RegExp(`\\n(?:${dash > 0 ? ` {0,${dash - 1}}[^ \\n#]|` : ""} {${dash}}[^ \\n#-])`, "g");
  ending.lastIndex = from;
  const found = ending.exec(text);
  const end = found ? found.index + 1 : text.length;
  const marker = `\n${" ".repeat(dash)}-`;
  const starts: number[] = [];
  // The line feed before `from` too: the first entry is held to the same rule as the others.
  for (let at = text.indexOf(marker, from - 1); at !== -1 && at + 1 < end; at = text.indexOf(marker, at + marker.length)) {
    const next = text.charCodeAt(at + marker.length);
    // `-` then a space, a tab, the line's end or the text's end: an entry (`-1` or `-x` is a scalar).
    if (next === 0x20 || next === 0x09 || next === 0x0a || Number.isNaN(next)) starts.push(at + 1);
  }
  return starts;
}
