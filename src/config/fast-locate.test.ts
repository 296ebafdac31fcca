/**
 * The positions of a large file come from a js-yaml pass (fast-locate.ts) instead of `yaml`'s Document: on
 * every fixture and example, each value, key and scalar range it finds is the one the Document gives.
 */
import { describe, expect, it } from "vitest";
import { fixtureAndExampleFiles } from "../../test/helpers/config.ts";
import { checkFile } from "./check-file.ts";
import { fastLocator } from "./fast-locate.ts";
import { parseFast } from "./fast-yaml.ts";
import { FileView } from "./file-view.ts";
import { type ConfigPath, createLocator } from "./locate.ts";
import { parseYaml } from "./parse-yaml.ts";

/** Every path of a value, to a depth of 5. */
function pathsOf(value: unknown, path: (string | number)[] = []): ConfigPath[] {
  if (path.length > 5 || typeof value !== "object" || value === null) return [path];
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return [path, ...entries.flatMap(([key, v]) => pathsOf(v, [...path, key]))];
}

const files = fixtureAndExampleFiles().filter(([, text]) => {
  const fast = parseFast(text);
  return fast.ok && !fast.unusual && !fast.anchored && parseYaml("f.yaml", text).diagnostics.length === 0;
});

describe("positions found without yaml's Document", () => {
  it.each(files)("are yaml's in %s", (_name, text) => {
    const parsed = parseYaml("f.yaml", text);
    const slow = createLocator(parsed.doc, parsed.lineCounter);
    const view = new FileView("f.yaml", text);
    const fast = fastLocator(text, view.locate.offset);
    for (const path of pathsOf(parsed.doc.toJS())) {
      const where = JSON.stringify(path);
      expect(fast.value(path), where).toEqual(slow.value(path));
      expect(fast.key(path), where).toEqual(slow.key(path));
      expect(fast.range(path), where).toEqual(slow.range(path));
      // An index of the one path asked for finds it where the index of every node does.
      const one = fastLocator(text, view.locate.offset, [path]);
      expect([one.value(path), one.key(path), one.range(path)], where).toEqual([fast.value(path), fast.key(path), fast.range(path)]);
    }
  });

  it("point at a mistake in a file past 4 MiB without building the Document, which would not fit a 1 GB heap", () => {
    const entry = (i: number) => `  - domain: site-${i}.example.com\n    privacy: private\n    email: false\n    exclude_ips: []\n`;
    const entries = Array.from({ length: 50_000 }, (_, i) => entry(i)).join("");
    const text = `version: 1\nwebsites:\n${entries}  - domain: last.example.com\n    privcy: private\n    email: \${MAIL}\n`;
    expect(text.length).toBeGreaterThan(4 * 2 ** 20);
    const checked = checkFile("big.yaml", text, { env: {} }, undefined);
    const line = 2 + 50_000 * 4 + 2;
    expect(checked.diagnostics.map((d) => `${d.line}:${d.column} ${d.path}`)).toEqual([
      `${line + 1}:12 websites[50000].email`,
      `${line}:5 websites[50000].privcy`,
    ]);
    expect(checked.part?.view.built).toBe(false);
  });

  it("point at a mistake in a small file of many nodes without the Document either: 600,000 numbers in 1.2 MB", () => {
    const text = `version: 1\nx-k: [${Array(600_000).fill(1).join(",")}]\nwebsites:\n  - domain: a.example.com\n    favorite: maybe\n`;
    expect(text.length).toBeLessThan(4 * 2 ** 20);
    const checked = checkFile("dense.yaml", text, { env: {} }, undefined);
    expect(checked.diagnostics.map((d) => `${d.line}:${d.column} ${d.path}`)).toEqual(["5:15 websites[0].favorite"]);
    expect(checked.part?.view.built).toBe(false);
  });

  it("point at a quote never closed in a file past 4 MiB where a small file does, not at the end of the file", () => {
    const entry = (i: number) => `  - domain: site-${i}.example.com\n    privacy: private\n    email: false\n    exclude_ips: []\n`;
    const entries = Array.from({ length: 50_000 }, (_, i) => entry(i)).join("");
    const small = `version: 1\nwebsites:\n  - domain: "open.example.com\n    email: true\n`;
    const big = `${small}${entries}`;
    expect(big.length).toBeGreaterThan(4 * 2 ** 20);
    const told = (text: string) =>
      checkFile("f.yaml", text, { env: {} }, undefined).diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
    expect(told(big)).toEqual(['3:13 invalid YAML: the quote " opened here is never closed']);
    expect(told(big)).toEqual(told(small));
    // Another syntax error is js-yaml's, at its place, though a plain value holds a quote after a space.
    expect(told(`${entries}  - domain: [x\n`)).toEqual([expect.stringMatching(/^200002:\d+ invalid YAML: /)]);
    const apostrophe = `version: 1\nwebsites:\n  - domain: a.example.com\n    password: rock 'n roll\n${entries}  - domain: x.com: y`;
    expect(told(apostrophe)).toEqual(["200005:18 invalid YAML: bad indentation of a mapping entry"]);
  });

  it("covers the fixtures and examples", () => {
    expect(files.length).toBeGreaterThan(20);
  });
});
