/**
 * The differential test of the two parsers (DESIGN §2 "Loading"): js-yaml's fast parse, merged as the loader
 * merges it, reads every fixture, example and generated config to the same values as `yaml`'s
 * position-keeping parse with the project's options, and puts each website's domain at the line and column
 * `yaml` gives; where they would disagree, the loader refuses the file.
 */
import { describe, expect, it } from "vitest";
import { diagnosticsOf, fixtureAndExampleFiles, load, loadOk } from "../../test/helpers/config.ts";
import { MAX_DEPTH, parseFast } from "./fast-yaml.ts";
import { createLocator } from "./locate.ts";
import { resolveMerges } from "./merge-keys.ts";
import { parseYaml } from "./parse-yaml.ts";

/** Both parsers on one text: `undefined` where a parser refuses it. */
function both(text: string): { fast: unknown; slow: unknown; names: unknown[]; positions: unknown[] } {
  const fast = parseFast(text);
  const parsed = parseYaml("f.yaml", text);
  const refused = parsed.diagnostics.some((d) => d.severity === "error");
  let slow: unknown;
  try {
    slow = refused ? undefined : parsed.doc.toJS();
  } catch {
    slow = undefined;
  }
  const value = fast.ok ? resolveMerges(fast.value) : undefined;
  const websites = (slow as { websites?: unknown } | undefined)?.websites;
  const count = Array.isArray(websites) ? websites.length : 0;
  const locate = createLocator(parsed.doc, parsed.lineCounter);
  const positions = Array.from({ length: count }, (_, i) => locate.value(["websites", i, "domain"]));
  const names = Array.from({ length: count }, (_, i) => (fast.ok ? fast.names.websites[i] : undefined));
  return { fast: value, slow, names, positions };
}

/** Domains whose position the fast parse knows are where `yaml` says; the others it leaves to `yaml`. */
function expectSameNames({ names, positions }: { names: unknown[]; positions: unknown[] }): void {
  for (const [i, name] of names.entries()) if (name !== undefined) expect(name, `websites[${i}].domain`).toEqual(positions[i]);
}

describe("js-yaml and yaml", () => {
  it.each(fixtureAndExampleFiles())("read %s alike", (_name, text) => {
    const read = both(text);
    // Where js-yaml refuses the file, the loader words the error with yaml (the bad fixtures' messages).
    if (read.fast !== undefined) expect(read.fast).toEqual(read.slow);
    expectSameNames(read);
  });

  const values = [
    "yes",
    "no",
    "on",
    "off",
    "y",
    "True",
    "FALSE",
    "~",
    "null",
    "",
    "0o17",
    "017",
    "0x1F",
    "0b101",
    "1_000",
    "+12",
    "-0",
    "1e3",
    ".5",
    "5.",
    ".inf",
    "-.Inf",
    ".NaN",
    "2001-12-14",
    "12:30:45",
    "'it''s'",
    '"\\x41\\u00e9"',
    "=",
    '"<<"',
    "1.0.0",
    "+0x1A",
    "-0o7",
    "0xG",
    "'${HOME}'",
    "${HOME:-x}",
    "$${LITERAL}",
    "|\n    block\n    text",
    ">-\n    folded\n    text",
    '"multi\n    line"',
    "plain # comment",
    "[a, 'b', \"c\"]",
    "{a: 1, 'b': [2]}",
  ];
  it.each(values)("read the value %j alike", (value) => {
    const read = both(`k: ${value}\n`);
    expect(read.fast).toEqual(read.slow);
  });

  const layouts: Record<string, string> = {
    anchors:
      "defaults: &d {email: true}\nwebsites:\n  - &site {domain: a.example.com, exclude_ips: &ips [10.0.0.1]}\n  - {domain: b.example.com, exclude_ips: *ips}\n  - *site\n",
    merges:
      "base: &base {email: true, privacy: private}\nmore: &more {favorite: true, email: false}\nwebsites:\n  - <<: *base\n    domain: a.example.com\n  - <<: [*more, *base]\n    domain: b.example.com\n    privacy: public\n  - domain: c.example.com\n    <<: *base\n    email: false\n",
    nested: "a: &a {x: 1}\nb: &b {<<: *a, y: 2}\nc: {<<: *b, z: 3}\n",
    quoted:
      'websites:\n  - domain: "a.example.com"\n  - domain: \'b.example.com\'\n  - "domain": c.example.com\n  -   domain:    d.example.com   # spaced\n',
    flow: "websites: [{domain: a.example.com}, {email: true, domain: b.example.com}]\n",
    comments:
      "# head\nwebsites: # the list\n  # before\n  - # an empty line follows\n\n    domain: a.example.com\n  -\n    domain: b.example.com\n",
    crlf: "version: 1\r\nwebsites:\r\n  - domain: a.example.com\r\n    email: true\r\n  - domain: b.example.com\r\n",
    bom: "\uFEFFversion: 1\nwebsites:\n  - domain: a.example.com\n",
    bomFirstLine: "\uFEFFwebsites: [{domain: a.example.com}]\n",
    env: "websites:\n  - domain: ${DOMAIN}\n    password: ${PW:-fallback}\n    email: ${MAIL}\n",
    document: "---\nwebsites:\n  - domain: a.example.com\n...\n",
    indentless: "websites:\n- domain: a.example.com\n- domain: b.example.com\n",
    keys: "1: one\ntrue: yes\n? complex\n: value\n",
  };
  it.each(Object.entries(layouts))("read the %s layout alike, domains at yaml's positions", (_name, text) => {
    const read = both(text);
    expect(read.fast).toEqual(read.slow);
    expectSameNames(read);
  });
});

describe("the loader, where the parsers would disagree", () => {
  it.each([
    ["!!float 1", "3:\\d+"],
    ["!!binary aGVsbG8=", "3:\\d+"],
    ["!!timestamp 2001-12-14", "3:\\d+"],
    ["!custom x", "3:\\d+"],
  ])("refuses a website field tagged %s, at the value", (tagged, at) => {
    const result = load(`version: 1\nwebsites:\n  - domain: ${tagged}\n`);
    expect(diagnosticsOf(result)[0]).toMatch(new RegExp(`^${at} .*YAML parsers read this (value )?differently`));
  });

  it('refuses a null key, which yaml reads as "" and js-yaml as "null"', () => {
    expect(diagnosticsOf(load("version: 1\nwebsites: []\nnull: x\n"))[0]).toMatch(/YAML parsers read this value differently/);
  });

  it("refuses an empty node under a number tag where js-yaml does, with its words", () => {
    for (const tag of ["int", "float"]) {
      expect(diagnosticsOf(load(`version: 1\nwebsites:\n  - domain: a.example.com\n    email: !!${tag}\n`))).toEqual([
        `5:1 YAML parsers read this differently (cannot resolve a node with !<tag:yaml.org,2002:${tag}> explicit tag): write it plainly, as sitesync export does`,
      ]);
    }
  });

  it("refuses a list or a mapping written as a key, at that key: js-yaml reads `[domain]` as domain, yaml as [ domain ]", () => {
    const keys = [
      ["? [domain]\n    : a.example.com", "3:7"],
      ["[domain]: a.example.com", "3:5"],
      ["? {domain: x}\n    : a.example.com", "3:7"],
      ["domain: a.example.com\n    email: true\n    ? [privacy]\n    : private", "5:7"],
    ];
    for (const [key, at] of keys) {
      const result = load(`version: 1\nwebsites:\n  - ${key}\n`);
      expect(result.ok, key).toBe(false);
      expect(diagnosticsOf(result), key).toEqual([
        expect.stringMatching(new RegExp(`^${at} websites\\[0\\]: YAML parsers read this value differently`)),
      ]);
    }
    // An anchor before a first key that merges (`- &w <<: *d`): yaml anchors the key, js-yaml the mapping.
    const merged = "version: 1\nx-d: &d\n  privacy: private\nwebsites:\n  - &w <<: *d\n    domain: a.example.com\n  - *w\n";
    expect(parseFast(merged)).toMatchObject({ ok: true, unusual: true, merges: true, unusualAt: { why: "key" } });
    expect(load(merged).ok).toBe(false);
    // A null key too, which js-yaml reads as "null".
    expect(diagnosticsOf(load("version: 1\npolicy:\n  prune: false\n  ~: 1\nwebsites: []\n"))).toEqual([
      expect.stringMatching(/^4:3 policy: YAML parsers read this value differently/),
    ]);
    // At the root too, where the mapping that holds the key starts at 1:1.
    const root = `version: 1\nwebsites:\n  - domain: a.example.com\n${Array.from({ length: 20 }, (_, i) => `x-note-${i}: n\n`).join("")}? [websites_url]\n: https://a.example.com\n`;
    expect(diagnosticsOf(load(root))).toEqual([expect.stringMatching(/^24:3 YAML parsers read this value differently/)]);
  });

  it("reads a quoted `<<`, or an alias of one, as the plain key yaml reads, behind an anchor or a tag too", () => {
    const head = "version: 1\nwebsites:\n  - &a {domain: a.example.com, email: true}\n";
    const entries = [
      '  - domain: b.example.com\n    &k "<<": *a\n',
      "  - domain: b.example.com\n    &k '<<': *a\n",
      '  - domain: b.example.com\n    !!str "<<": *a\n',
      '  - domain: b.example.com\n    &k !!str "<<": *a\n',
      "  - domain: b.example.com\n    ? &k\n      '<<'\n    : *a\n",
      '  - {domain: b.example.com, &k "<<": *a}\n',
      "  - domain: b.example.com\n    exclude_params: [&m <<]\n    *m : *a\n",
    ];
    for (const entry of entries) {
      const unknown = diagnosticsOf(load(`${head}${entry}`)).filter((d) => /websites\[1\]\.<<: unknown key "<<"/.test(d));
      expect(unknown, entry).toHaveLength(1);
    }
    // Written plainly, behind an anchor too, it merges as yaml merges it.
    const merged = loadOk(`${head}  - domain: b.example.com\n    &k <<: *a\n`);
    expect(merged.websites.map((w) => [w.domain, w.email])).toEqual([
      ["a.example.com", 1],
      ["b.example.com", 1],
    ]);
  });

  it("reads flow and anchored items, aliases and a `<<` value at once, without the comparison a key would need", () => {
    const text =
      "defaults: &d {email: true}\nwebsites:\n  - &s {domain: a.example.com}\n  - *s\n  - {domain: c.example.com}\n" +
      "  - domain: b.example.com\n    exclude_params: [&m <<, x]\n    <<: *d\nnotes: [~, *m]\n";
    expect(parseFast(text)).toMatchObject({ ok: true, unusual: false, merges: true });
  });

  it("refuses a carriage return with no line feed, which could hide a tombstone in a comment from yaml", () => {
    const hidden = "version: 1\nwebsites:\n  - domain: keep.example.com # note\r  - domain: a.example.com\r    state: absent\n";
    expect(diagnosticsOf(load(hidden))).toEqual([
      "3:36 a carriage return without a line feed after it (old Mac line endings, or a CRLF file converted twice): YAML parsers read it differently, as a line break or as text; save the file with LF or CRLF line endings",
    ]);
    expect(load("version: 1\r\r\nwebsites: []\r\r\n").ok).toBe(false);
    expect(load("version: 1\r\nwebsites:\r\n  - domain: a.example.com\r\n").ok).toBe(true);
  });

  it("refuses an anchor named twice, one inside the other, and an escaped line break before an empty line", () => {
    const twice = "version: 1\nx: &p [utm_source, &p fbclid]\nwebsites:\n  - domain: a.example.com\n    exclude_params: *p\n";
    const broken = 'version: 1\nwebsites:\n  - domain: a.example.com\n    password: "abc\\\n\n      def"\n';
    for (const text of [twice, broken]) {
      expect(diagnosticsOf(load(text)), text).toEqual([
        expect.stringMatching(/^\d+:\d+ websites\[0\]\.\w+: YAML parsers read this value differently/),
      ]);
    }
    // Named again after its node, an anchor is the later one to both, and an escaped break alone joins lines for both.
    const later =
      "version: 1\ndefaults: {exclude_params: &p [a]}\nwebsites:\n  - {domain: a.example.com, exclude_params: &p [b]}\n  - {domain: b.example.com, exclude_params: *p}\n";
    expect(loadOk(later).websites[1]?.exclude_params).toEqual(["b"]);
    expect(loadOk('version: 1\nwebsites:\n  - domain: a.example.com\n    password: "abc\\\n      def"\n').websites[0]?.password).toBe(
      "abcdef",
    );
  });

  it("compares a block scalar with an indentation number with yaml: refused where they differ, read where they agree", () => {
    // js-yaml keeps the line of spaces deeper than the indicator as "\n ", yaml drops it: two passwords.
    const differs = "version: 1\nwebsites:\n  - domain: a.example.com\n    privacy: password\n    password: |1-\n      xs3cret\n      \n";
    expect(parseFast(differs)).toMatchObject({ ok: true, unusual: true, unusualAt: { line: 5, column: 15 } });
    expect(diagnosticsOf(load(differs))).toEqual([
      expect.stringMatching(/^5:15 websites\[0\]\.password: YAML parsers read this value differently \(.*such as \|2, .* can make them\)/),
    ]);
    for (const header of ["|2-", ">-2", "|+2", "&pw |2"]) {
      const agrees = `version: 1\nwebsites:\n  - domain: a.example.com\n    privacy: password\n    password: ${header}\n       s3cret\n`;
      expect(parseFast(agrees), header).toMatchObject({ ok: true, unusual: true });
      expect(loadOk(agrees).websites[0]?.password, header).toMatch(/^ s3cret\n?$/);
    }
    // Without a number the two agree (100,000 generated blocks in the review that found this): nothing to compare.
    for (const header of ["|", "|-", ">+", "|-  # note"]) {
      const plain = `version: 1\nwebsites:\n  - domain: a.example.com\n    privacy: password\n    password: ${header}\n      s3cret\n`;
      expect(parseFast(plain), header).toMatchObject({ ok: true, unusual: false });
    }
  });

  it("compares a value over several lines that holds a blank line with a tab, and a |+ block before a last line of blanks", () => {
    const head = "version: 1\nwebsites:\n  - domain: a.example.com\n    privacy: password\n";
    for (const [text, why] of [
      [`${head}    password: |\n      s3cret\n\t\n  - domain: b.example.com\n`, "tab"],
      [`${head}    password: |\n      s3cret\n \t# note\n  - domain: b.example.com\n`, "tab"],
      [`${head}    password: pass\n      word\n\t\n      more\n`, "tab"],
      [`${head}    password: |+\n      s3cret\n      `, "end"],
    ] as const) {
      expect(parseFast(text), text).toMatchObject({ ok: true, unusual: true, unusualAt: { why } });
      expect(load(text).ok, text).toBe(false);
    }
    // Between entries, or in a file with no |+ block, such lines read alike, and nothing is compared.
    for (const text of [`${head}\t\n    email: true\n\t# note\n`, `${head}    password: |\n      s3cret\n  `]) {
      expect(parseFast(text), text).toMatchObject({ ok: true, unusual: false });
    }
  });

  it("reads an anchored value once, however js-yaml closes it: no comparison, and so no refusal past 4 MiB", () => {
    const shared =
      "version: 1\nx-pw: &pw ${PW}\nx-p: &p private\nwebsites:\n  - domain: a.example.com\n    privacy: *p\n    password: *pw\n";
    expect(parseFast(shared)).toMatchObject({ ok: true, unusual: false });
    const entries = Array.from({ length: 70_000 }, (_, i) => `  - domain: site-${i}.example.com\n    privacy: *p\n    email: false\n`);
    const big = `version: 1\nx-p: &p private\nwebsites:\n${entries.join("")}`;
    expect(big.length).toBeGreaterThan(4 * 2 ** 20);
    expect(loadOk(big).websites[69_999]).toMatchObject({ domain: "site-69999.example.com", privacy: 1 });
  });

  it("refuses an anchor before a mapping's first key on its line, which js-yaml puts on the mapping and yaml refuses", () => {
    const text = "version: 1\npolicy: &p prune: true\nwebsites:\n  - domain: a.example.com\n";
    expect(parseFast(text)).toMatchObject({ ok: true, unusual: true, unusualAt: { line: 2, column: 9 } });
    expect(diagnosticsOf(load(text))).toEqual([
      `2:9 invalid YAML: a mapping cannot start on its key's line ("policy: &p prune: true"); write its keys on the lines below, indented`,
    ]);
    // On a list item, yaml names the key where js-yaml names the item: compared, and taken when no alias tells.
    expect(parseFast("version: 1\nwebsites:\n  - &a domain: a.example.com\n")).toMatchObject({ unusual: true });
    expect(loadOk("version: 1\nwebsites:\n  - &a domain: a.example.com\n").websites[0]?.domain).toBe("a.example.com");
    // The anchor on its own line names the mapping to both.
    expect(parseFast("version: 1\npolicy: &p\n  prune: true\nwebsites: []\n")).toMatchObject({ unusual: false });
  });

  it("compares a mapping holding a key with no value, after which js-yaml's keys would count as values", () => {
    const explicit = "version: 1\n? x-note\n[websites_url]: https://elsewhere.example\nwebsites: []\n";
    expect(parseFast(explicit)).toMatchObject({ ok: true, unusual: true });
    expect(load(explicit).ok).toBe(false);
    expect(parseFast("version: 1\ndefaults: {email, exclude_bots}\nwebsites: []\n")).toMatchObject({
      unusual: true,
      unusualAt: { line: 2, column: 11 },
    });
    // An empty value of a block key is a node of its own: nothing to compare.
    expect(parseFast("version: 1\nwebsites:\n  - domain: a.example.com\n    email:\n")).toMatchObject({ unusual: false });
  });

  it("compares a file whose aliases yaml would stop counting at 100, rather than taking it unread", () => {
    const head =
      "version: 1\nx-q: &q [203.0.113.7]\nx-a: &a {privacy: public, exclude_ips: *q}\nx-b: &b {<<: *a, email: true}\nwebsites:\n";
    const shared = Array.from({ length: 60 }, (_, i) => `  - <<: *b\n    domain: s${i}.example.com\n`).join("");
    const broken = `${head}${shared}  - <<: *b\n    domain: last.example.com\n    privacy: password\n    password: "open\\\n\n      sesame"\n`;
    expect(diagnosticsOf(load(broken))).toEqual([
      expect.stringMatching(/^\d+:\d+ websites\[60\]\.password: YAML parsers read this value differently/),
    ]);
    expect(loadOk(`${head}${shared}`).websites).toHaveLength(60);
  });

  it("refuses what js-yaml reads and yaml does not: lines indented less than their parent, a mapping on `---`, `---#`", () => {
    const head = "version: 1\nwebsites:\n  - domain: a.example.com\n";
    for (const text of [
      `${head}    exclude_params: [utm_source,\n    fbclid]\n`,
      `${head}    password: "abc\n    def"\n`,
      `${head}    password: 'abc\n   def'\n`,
      "version: 1\nwebsites:\n  - {domain: a.example.com,\n  email: true}\n",
      "--- version: 1\n",
      `# a header\n---#\n${head}`,
      `${head}    password: "abc"#note\n`,
      `${head}    exclude_ips: [203.0.113.7]#office\n`,
      `\uFEFFx-note: 'n'#c\n${head}`,
    ]) {
      expect(parseFast(text), text).toMatchObject({ ok: true, unusual: true });
      expect(diagnosticsOf(load(text))[0], text).toMatch(/^\d+:\d+ invalid YAML: /);
    }
    expect(parseFast(`---  # a comment\n${head}`)).toMatchObject({ ok: true, unusual: false });
    // After a byte order mark too; and a %YAML directive, under which yaml reads `yes` as true.
    for (const text of [`\uFEFF---#\n${head}`, `\uFEFF--- version: 1\n`, `\uFEFF%YAML 1.1\n---\n${head}    password: yes\n`]) {
      expect(parseFast(text), text).toMatchObject({ ok: true, unusual: true, unusualAt: { why: "head" } });
      expect(load(text).ok, text).toBe(false);
    }
    expect(parseFast(`\uFEFF${head}`)).toMatchObject({ ok: true, unusual: false });
    expect(diagnosticsOf(load(`${head}    email: "1"#c\n`))).toEqual([
      '4:15 invalid YAML: a comment needs a space before its "#" ("value # note")',
    ]);
    // A key over 1,024 characters is refused by yaml, unless written `? key`; comments before a key are not in it.
    const long = `x-${"n".repeat(1100)}`;
    expect(diagnosticsOf(load(`version: 1\n${long}: 1\n${head.slice(11)}`))).toEqual([
      "2:1 invalid YAML: the : indicator must be at most 1024 chars after the start of an implicit block mapping key",
    ]);
    expect(loadOk(`version: 1\n? ${long}\n: 1\n${head.slice(11)}`).websites).toHaveLength(1);
    // Counted to its colon: a quoted key of 1,000 characters and 40 spaces.
    const spaced = `version: 1\n"x-${"n".repeat(1000)}"${" ".repeat(40)}: 1\n${head.slice(11)}`;
    expect(parseFast(spaced)).toMatchObject({ ok: true, unusual: true, unusualAt: { why: "key" } });
    expect(load(spaced).ok).toBe(false);
    expect(parseFast(`version: 1\n${"# a long note\n".repeat(100)}${head.slice(11)}`)).toMatchObject({ ok: true, unusual: false });
    // A `"#` elsewhere in the file does not make a plain value before ` # note`, or a block before a comment line, suspect:
    // in a file over 4 MiB that would refuse it.
    const hashes = `${head}    exclude_params: ["#frag"] # note\n    password: |\n      pw\n    # the block ends here\n    email: true # yes\n`;
    expect(parseFast(hashes)).toMatchObject({ ok: true, unusual: false });
    // A # inside a plain value, or after a quote inside a quoted one, is text to both.
    expect(parseFast(`${head}    password: a"#b\n    email: "x\\"#"\n`)).toMatchObject({ ok: true, unusual: false });
    // Indented deeper than its key, a list over two lines reads alike, and is taken.
    expect(loadOk(`${head}    exclude_params: [utm_source,\n      fbclid]\n`).websites[0]?.exclude_params).toEqual([
      "utm_source",
      "fbclid",
    ]);
  });

  it("compares a list holding `key: value` pairs, whose keys js-yaml reads as the list's own items", () => {
    for (const text of ["version: 1\nwebsites: [<<: {domain: a.example.com}]\n", "version: 1\nwebsites: []\nx: [~: 1]\n"]) {
      expect(parseFast(text), text).toMatchObject({ ok: true, unusual: true });
      expect(load(text).ok, text).toBe(false);
    }
    // A mapping whose first key is quoted, over several lines, is no quoted scalar: read at once.
    expect(parseFast('version: 1\nwebsites:\n  - "domain": a.example.com\n    email: true\n')).toMatchObject({ unusual: false });
  });

  it("keeps no domain positions for a list with an empty item, which would shift them: yaml places them", () => {
    const text = "version: 1\nwebsites:\n  - domain: a.example.com\n  -\n  - domain: b.example.com\n  - domain: b.example.com\n";
    expect(diagnosticsOf(load(text))).toContain(
      '6:13 websites[3].domain: duplicate website "b.example.com": already listed at line 5; keep one entry',
    );
  });

  it("points a file over 4 MiB at its empty list item, not at the list, and reads one on the next line as an item", () => {
    const entries = Array.from({ length: 70_000 }, (_, i) => `  - domain: site-${i}.example.com\n    privacy: private\n    email: false\n`);
    const text = `version: 1\nwebsites:\n${entries.join("")}  -\n`;
    expect(text.length).toBeGreaterThan(4 * 2 ** 20);
    expect(diagnosticsOf(load(text))).toEqual([
      expect.stringMatching(/^210003:3 YAML parsers may read this differently \(.*an empty list item/),
    ]);
    // `-` with its mapping on the lines below is an item, and a `- # note` alone is the empty one.
    const nested = "version: 1\nwebsites:\n  -\n    domain: a.example.com\n  - # note\n";
    expect(parseFast(nested)).toMatchObject({ unusual: true, unusualAt: { line: 5, column: 3 } });
  });

  it("refuses a file over 4 MiB that would need the comparison, at the first node to compare, without it", () => {
    const entries = Array.from({ length: 60_000 }, (_, i) => `  - domain: site-${i}.example.com\n    privacy: private\n    email: false\n`);
    const text = `version: 1\nwebsites:\n  - domain: a.example.com\n    exclude_params: [utm_source,\n      fbclid]\n${entries.join("")}`;
    expect(text.length).toBeGreaterThan(4 * 2 ** 20);
    expect(diagnosticsOf(load(text))).toEqual([
      "4:21 YAML parsers may read this differently (a quoted value or [list] over several lines, or a | or > block with an indentation number such as |2), and a file over 4 MiB or 500,000 nodes is not compared, to stay within 1 GB of memory: write it plainly, as sitesync export does",
    ]);
    // Each refusal names what the file holds, at its place.
    const head = "version: 1\nwebsites:\n  - domain: a.example.com\n";
    const refused = (entry: string) => diagnosticsOf(load(`${head}${entry}${entries.join("")}`))[0]?.split(", and a file")[0];
    expect(refused('    password: "pw"#note\n')).toBe(
      "4:15 YAML parsers may read this differently (a # right after a quote or a bracket (a comment needs a space before it))",
    );
    expect(refused("    email: !!bool true\n")).toMatch(/^4:12 YAML parsers may read this differently \(a tag such as !!float/);
    expect(refused("    ? [privacy]\n    : private\n")).toMatch(
      /^3:5 YAML parsers may read this differently \(a key that is empty, a list/,
    );
  });

  it("reads !!str alike with both, and so takes it", () => {
    expect(load("version: 1\nwebsites:\n  - domain: !!str a.example.com\n").ok).toBe(true);
  });

  it("refuses a %YAML 1.1 directive, under which yaml reads yes as true", () => {
    const result = load("%YAML 1.1\n---\nversion: 1\nwebsites:\n  - domain: a.example.com\n    email: yes\n");
    expect(result.ok).toBe(false);
  });

  it("keeps yaml's words for the syntax errors both refuse: a duplicate key", () => {
    expect(diagnosticsOf(load("version: 1\nversion: 1\nwebsites: []\n"))).toEqual([
      '2:1 duplicate key "version": a key may appear only once in a mapping',
    ]);
  });

  it("refuses nesting past the bound at once, at the place it is crossed", () => {
    const failed = parseFast("[".repeat(10_000_000));
    expect(failed).toMatchObject({ ok: false, line: 1, column: MAX_DEPTH, bound: { code: "yaml.depth" } });
  });
});

describe("whether interpolation has work to do", () => {
  const interpolates = (text: string) => {
    const fast = parseFast(text);
    return fast.ok && fast.interpolates;
  };

  it("is told by a `${` in a value, a list item or a key, or by a password key, never by a comment or a word", () => {
    const exported = "# send it behind ${VARIABLE}; password: ${X}\nwebsites:\n  - domain: a.example.com\n    privacy: password\n";
    expect(interpolates(exported)).toBe(false);
    expect(interpolates("websites:\n  - domain: ${DOMAIN}\n")).toBe(true);
    expect(interpolates("websites:\n  - domain: a.example.com\n    exclude_ips: [203.0.113.1, '${IP}']\n")).toBe(true);
    expect(interpolates("defaults:\n  password: hunter22\n")).toBe(true);
    expect(interpolates("defaults: { password: 12345678 }\n")).toBe(true);
  });

  it("finds a `${` after one in a comment, in a key, through an alias, and written with escapes", () => {
    const header = "# send it behind ${VARIABLE}\n";
    expect(interpolates(`${header}websites:\n  - domain: a.example.com # \${C}\n  - domain: b.example.com\n`)).toBe(false);
    expect(interpolates(`${header}websites:\n  - domain: a.example.com # \${C}\n  - domain: b.\${X}\n`)).toBe(true);
    expect(interpolates(`${header}\${KEY}: 1\n`)).toBe(true);
    expect(interpolates(`${header}x: &a "\${V}"\nwebsites:\n  - domain: *a\n`)).toBe(true);
    expect(interpolates(`${header}websites:\n  - domain: "\\x24{D}"\n`)).toBe(true);
    expect(interpolates(`${header}k: |\n  \${BLOCK}\n`)).toBe(true);
  });

  it("reads a `${VAR}` written with escapes the same whether or not the file holds a `${` of its own", () => {
    const entry = 'websites:\n  - domain: "a\\x24{D}.example.com"\n';
    expect(interpolates(entry)).toBe(true);
    for (const text of [`version: 1\n${entry}`, `# behind \${VARIABLE}\nversion: 1\n${entry}`]) {
      expect(loadOk(text, { D: "zz" }).websites.map((w) => w.domain)).toEqual(["azz.example.com"]);
    }
  });

  it("still warns of a password written in a file that holds no `${`", () => {
    const text = "version: 1\ndefaults:\n  privacy: password\n  password: hunter22\nwebsites:\n  - domain: a.example.com\n";
    expect(diagnosticsOf(load(text))).toEqual([
      expect.stringMatching(/^4:13 \(warning\) defaults.password: the password is written in the file/),
    ]);
  });
});
