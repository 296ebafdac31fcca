import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.ts";
import { diagnosticsOf } from "./helpers.ts";

// Realistic mistakes, one per file, each with the exact diagnostics a user sees (test/fixtures/bad/expected.json).
const dir = new URL("../fixtures/bad/", import.meta.url);
const expected = JSON.parse(readFileSync(new URL("expected.json", dir), "utf8")) as Record<string, string[]>;
const files = readdirSync(dir).filter((name) => name.endsWith(".yaml")).sort();
const env = { EXAMPLE_STATS_PASSWORD: "fixture-password", EMPTY_VAR: "" };

describe("bad configs", () => {
  it("has an expectation for every fixture, and at least 35 of them", () => {
    expect(Object.keys(expected).sort()).toEqual(files);
    expect(files.length).toBeGreaterThanOrEqual(35);
  });

  it.each(files)("%s", (name) => {
    const file = new URL(name, dir).pathname;
    const result = loadConfig(file, { env });
    expect(result.ok).toBe(false);
    expect(diagnosticsOf(result)).toEqual(expected[name]);
    for (const d of result.ok ? [] : result.errors) expect(d.file).toBe(file);
  });
});
