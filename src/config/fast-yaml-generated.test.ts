/**
 * The differential test on generated configs (DESIGN §2 "Loading"): seeded random files that mix what the two
 * parsers could read differently (anchors, aliases, merge keys, `${VAR}`, quoting, tags, odd keys, comments,
 * CRLF, a byte order mark, duplicate keys). The loader trusts the fast parse alone only when it found nothing
 * unusual: then `yaml` must read the file without an error, to the same values, each domain where `yaml` puts it.
 */
import { describe, expect, it } from "vitest";
import { parseFast } from "./fast-yaml.ts";
import { createLocator } from "./locate.ts";
import { resolveMerges } from "./merge-keys.ts";
import { parseYaml } from "./parse-yaml.ts";

/** mulberry32: the same files on every run, so that a failure names a seed that repeats it. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SCALARS = [
  "a.example.com",
  "'b.example.com'",
  '"c.example.com"',
  "1",
  "0o17",
  "017",
  "0x1F",
  "1_000",
  ".5",
  "1e3",
  "-.inf",
  "true",
  "yes",
  "on",
  "~",
  "null",
  "",
  "'it''s'",
  '"\\x41\\u00e9"',
  "${VAR}",
  "'${VAR:-x}'",
  "$${LITERAL}",
  '"a\\x24{V}"',
  "!!str 12",
  "!!int 12",
  "!!float 1",
  "!!str",
  '"<<"',
  "multi word value",
  "value # a comment",
  "[a, 'b', 1]",
  "{x: 1}",
  "[]",
  "|\n  block\n  text",
  "|+\n  kept\n\n",
  ">-\n  folded\n  text",
  "|2\n    indented",
  "|1-\n  x\n  ",
  "|2\n   x\n   \n",
  "|\n  x\n\t\n",
  "plain\n  more\n\t\n  text",
  "plain\n  continued",
  '"quoted \\\n  joined"',
  "'single\n  folded'",
  "0.",
  "+.inf",
  ".NaN",
  "-0x1",
  "1:30",
  "0b1",
  "a:b",
  "a #b",
  "&x anchored",
  "*v",
  "value\t",
  "{<<: *d, a: 1}",
  "[&w x, *w]",
];
/** Values that fit inside a flow mapping: one line, no comment, no bare tag. */
const FLOW_SCALARS = SCALARS.filter((value) => !/[#\n\t]|^!!\w+$|^$|^[-@`%*&]|^\{<</.test(value));
/** Each field once, written its own way: plain, quoted, as an explicit key. */
const KEYS = ["privacy", '"email"', "exclude_ips", "'favorite'", "password", "? exclude_bots"];
const ODD_KEYS = [
  '"<<"',
  "'<<'",
  "&k '<<'",
  "? [x]",
  "~",
  "!!null",
  "[y]",
  "*v",
  "? &k\n  '<<'",
  "${KEY}",
  "? {a: 1}",
  "? |\n  block key",
  '"two\\nlines"',
  "1",
  "true",
  "!!str 1",
  "__proto__",
  "constructor",
];

type Pick = <T>(list: readonly T[]) => T;

/** One generated config: a few anchored defaults, websites in block and flow style, aliases and merges. */
function generate(seed: number): string {
  const next = random(seed);
  const pick: Pick = (list) => list[Math.floor(next() * list.length)] as (typeof list)[number];
  const chance = (p: number) => next() < p;
  const lines = ["version: 1", "defaults: &d", `  email: ${pick(["true", "false", "1"])}`, "extra: &e {favorite: true}"];
  lines.push(`values: [&v ${pick(["<<", "x", "'y'", "1"])}, ${pick(FLOW_SCALARS)}]`);
  lines.push(chance(0.5) ? "websites:" : "websites: # the list");
  const anchored: string[] = [];
  const count = 1 + Math.floor(next() * 5);
  for (let i = 0; i < count; i++) lines.push(...website(i, anchored, pick, chance));
  if (chance(0.1)) lines.push(`${pick(["version", "websites_url"])}: 2`);
  let text = `${lines.join("\n")}\n`;
  if (chance(0.2)) text = `---\n${text}`;
  if (chance(0.2)) text = text.replaceAll("\n", "\r\n");
  if (chance(0.15)) text = `\uFEFF${text}`;
  return text;
}

function website(i: number, anchored: string[], pick: Pick, chance: (p: number) => boolean): string[] {
  if (anchored.length > 0 && chance(0.1)) return [`  - *${pick(anchored)}`];
  const anchor = chance(0.3) ? `&s${i}` : "";
  if (anchor) anchored.push(`s${i}`);
  const domain = chance(0.8) ? `site-${i}.example.com` : pick(FLOW_SCALARS);
  if (chance(0.25)) return [`  - ${anchor} {domain: ${domain}, ${pick(["privacy", "email", "favorite"])}: ${pick(FLOW_SCALARS)}}`];
  const pairs = [pair("domain", domain)];
  // Each key once, but now and then one written twice.
  const keys = KEYS.filter(() => chance(0.4));
  if (chance(0.1)) keys.push(pick(KEYS));
  if (chance(0.3)) keys.push(pick(ODD_KEYS));
  for (const key of keys) pairs.push(pair(key, chance(0.2) ? pick(["*d", "*e", "*v", "[*d, *e]"]) : pick(SCALARS)));
  if (chance(0.3)) pairs.push(pair(pick(["<<", "&m <<", "!!str <<"]), pick(["*d", "*e", "[*d, *e]"])));
  if (chance(0.2)) pairs.push("# a comment");
  const entry = anchor ? [`  - ${anchor}`, ...pairs.map((p) => `    ${p}`)] : [`  - ${pairs[0]}`, ...pairs.slice(1).map((p) => `    ${p}`)];
  return entry.map((line) => line.replaceAll("\n", "\n    "));
}

/** `key: value`, or `? key` and `: value` on lines of their own; a space before a colon that would end a tag or an alias. */
function pair(key: string, value: string): string {
  if (key.startsWith("?")) return `${key}\n: ${value}`;
  return `${key}${/^[*!]/.test(key) ? " " : ""}: ${value}`;
}

/** What the loader would do with `text`, and whether it would be right. */
function verdict(text: string): string | undefined {
  const fast = parseFast(text);
  // Refused, or compared with yaml before use: the loader cannot read such a file two ways.
  if (!fast.ok || fast.unusual) return undefined;
  const parsed = parseYaml("f.yaml", text);
  const errors = parsed.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) return `js-yaml reads it, yaml refuses it: ${errors[0]?.message}`;
  const slow = parsed.doc.toJS() as { websites?: unknown };
  const value = fast.merges ? resolveMerges(fast.value) : fast.value;
  expect(value).toEqual(slow);
  const locate = createLocator(parsed.doc, parsed.lineCounter);
  for (const [i, name] of fast.names.websites.entries()) {
    if (name !== undefined) expect(name, `websites[${i}].domain`).toEqual(locate.value(["websites", i, "domain"]));
  }
  return undefined;
}

describe("js-yaml and yaml on generated configs", () => {
  const seeds = Array.from({ length: 1000 }, (_, i) => i + 1);
  it.each(seeds)("read config %i alike, or the loader compares them first", (seed) => {
    const text = generate(seed);
    expect(verdict(text), text).toBeUndefined();
  });

  it("generates files of each kind: read fast, compared first, and refused", () => {
    const kinds = { fast: 0, compared: 0, refused: 0 };
    for (const seed of seeds) {
      const fast = parseFast(generate(seed));
      kinds[!fast.ok ? "refused" : fast.unusual ? "compared" : "fast"]++;
    }
    for (const count of Object.values(kinds)) expect(count).toBeGreaterThan(seeds.length / 10);
  });
});
