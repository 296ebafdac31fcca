/**
 * The README and docs/ stay true: every relative link and anchor resolves, every `sitesync …` command line in
 * their shell blocks is one the CLI reads, the README stays short, and docs/reference.md is what the settings
 * table and the CLI's commands generate.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { referenceMarkdown } from "../../scripts/docs/reference.ts";
import { ExitCode } from "../../src/run/exit-code.ts";
import { SETTING_ROWS } from "../../src/run/settings.ts";
import { commandLinesOf, commandProblems, linkProblems } from "./check-docs.ts";

const pages = ["README.md", ...readdirSync("docs").flatMap((name) => (name.endsWith(".md") ? [`docs/${name}`] : []))];
const text = (file: string) => readFileSync(file, "utf8");

describe("README.md and docs/", () => {
  it("link only to files and headings that exist", () => {
    expect(pages.flatMap((file) => linkProblems(file, text(file)))).toEqual([]);
  });

  it("show only command lines the CLI reads", async () => {
    const problems = await Promise.all(pages.map((file) => commandProblems(file, text(file))));
    expect(problems.flat()).toEqual([]);
    expect(pages.flatMap((file) => commandLinesOf(text(file))).length).toBeGreaterThan(40);
  });
});

describe("README.md", () => {
  const readme = text("README.md");
  it("is read in five minutes: under 150 lines, none over 120 characters outside code blocks", () => {
    expect(readme.split("\n").length).toBeLessThan(150);
    let fenced = false;
    const long = readme.split("\n").filter((line) => {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      return !fenced && line.length > 120;
    });
    expect(long).toEqual([]);
  });

  it("links to every page of docs/", () => {
    const missing = pages.filter((page) => page.startsWith("docs/") && !readme.includes(`](${page}`));
    expect(missing).toEqual([]);
  });
});

describe("docs/reference.md", () => {
  it("is as `npm run docs-reference` writes it", async () => {
    const generated = await referenceMarkdown(text("action.yml"));
    expect(text("docs/reference.md"), "run `npm run docs-reference` after editing src/run/settings.ts or a command in src/cli/").toBe(
      generated,
    );
  });

  it("lists every flag, Action input, exit code and environment variable of the settings table", () => {
    const reference = text("docs/reference.md");
    const names = SETTING_ROWS.flatMap(([, row]) => [
      ...(row.flag ? [`--${row.flag}`] : []),
      ...(row.input ? [`| \`${row.input}\` |`] : []),
      ...(row.env ? [`| \`${row.env}\` |`] : []),
    ]);
    const codes = Object.values(ExitCode).map((code) => `| **${code}** |`);
    expect([...names, ...codes].filter((name) => !reference.includes(name))).toEqual([]);
  });
});
