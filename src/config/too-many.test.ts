/**
 * A file with a problem in every entry (DESIGN §12): the first 1,000 are told, in the file's order, with a line
 * that says there are more, whether the schema or a rule finds them.
 */
import { describe, expect, it } from "vitest";
import { diagnosticsOf, load } from "../../test/helpers/config.ts";
import { createLocator } from "./locate.ts";
import { normalize } from "./normalize.ts";
import { parseYaml } from "./parse-yaml.ts";
import { createRuleContext, type Rule, runRules } from "./rules/index.ts";
import { MAX_FILE_PROBLEMS } from "./schema.ts";

const MORE = `more than ${MAX_FILE_PROBLEMS.toLocaleString("en")} problems: the first are listed; fix them and run again to see the rest`;

describe("a file with more problems than are told", () => {
  it("tells the schema's first 1,000, item by item at each one's line, and that there are more", () => {
    const entries = Array.from({ length: 5_000 }, (_, i) => `  - domain: s${i}.example.com\n    privacy: privte\n`);
    const told = diagnosticsOf(load(`version: 1\nwebsites:\n${entries.join("")}`));
    expect(told).toHaveLength(MAX_FILE_PROBLEMS + 1);
    expect(told[0]).toBe(`0:0 ${MORE}`);
    expect(told[1]).toBe('4:14 websites[0].privacy: must be one of public, private, password (or 0, 1, 2); did you mean "private"?');
    expect(told.at(-1)).toMatch(/^2002:14 websites\[999\]\.privacy: must be one of/);
  });

  it("stops a rule at the cap: 20,000 duplicates made by aliases, and a list of 20,000 numbers", () => {
    const dups = `version: 1\nx-w: &w {domain: a.example.com}\nwebsites: [${Array(20_000).fill("*w").join(", ")}]\n`;
    const told = diagnosticsOf(load(dups));
    expect(told).toHaveLength(MAX_FILE_PROBLEMS + 1);
    expect(told[0]).toBe(`0:0 ${MORE}`);
    expect(told[1]).toMatch(/websites\[1\]\.domain: duplicate website "a\.example\.com"/);
    const numbers = diagnosticsOf(load(`version: 1\nwebsites: [${Array(20_000).fill("1").join(",")}]\n`));
    expect(numbers).toHaveLength(MAX_FILE_PROBLEMS + 1);
    expect(numbers[1]).toMatch(/^2:12 websites\[0\]: must be a mapping/);
  });

  it("tells 1,000 when the schema and the rules each find fewer, but more together", () => {
    const entries = Array.from({ length: 600 }, () => "  - domain: a.example.com\n    privacy: privte\n");
    const told = diagnosticsOf(load(`version: 1\nwebsites:\n${entries.join("")}`));
    expect(told).toHaveLength(MAX_FILE_PROBLEMS + 1);
    expect(told[0]).toBe(`0:0 ${MORE}`);
  });

  it("stops the rules at the cap, the rules after the one that reached it too", () => {
    const { doc, lineCounter } = parseYaml("f.yaml", "version: 1\n");
    const locate = createLocator(doc, lineCounter);
    const { ctx, diagnostics } = createRuleContext("f.yaml", {}, normalize({}, "f.yaml", locate), locate);
    let after = false;
    const noisy: Rule = (c) => {
      for (let i = 0; i < 5_000; i++) c.error("x", ["websites", i], "wrong");
    };
    expect(runRules([noisy, () => (after = true)], ctx)).toBe(false);
    expect(diagnostics).toHaveLength(MAX_FILE_PROBLEMS);
    expect(after).toBe(false);
  });

  it("tells every problem of a file that has 1,000 or fewer, without the line", () => {
    const entries = Array.from({ length: MAX_FILE_PROBLEMS - 1 }, (_, i) => `  - domain: s${i}.example.com\n    privacy: privte\n`);
    const told = diagnosticsOf(load(`version: 1\nwebsites:\n${entries.join("")}  - domain: s.example.com\n    email: maybe\n`));
    expect(told).toHaveLength(MAX_FILE_PROBLEMS);
    expect(told).not.toContain(`0:0 ${MORE}`);
  });
});
