/** action.yml's inputs are the settings table's (DESIGN §1): an input added or changed in one is in the other. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { SETTINGS } from "../run/settings.ts";
import { actionYmlInputs, withTableInputs } from "./action-yml.ts";

const text = readFileSync(new URL("../../action.yml", import.meta.url), "utf8");
const declared = (parse(text) as { inputs: Record<string, unknown> }).inputs;

describe("action.yml", () => {
  it("declares exactly the table's inputs, in its order, with its descriptions and defaults", () => {
    expect(declared).toEqual(actionYmlInputs());
    expect(Object.keys(declared)).toEqual(Object.keys(actionYmlInputs()));
  });

  it("is as `npm run action-yml` writes it", () => {
    expect(text, "run `npm run action-yml` after editing src/run/settings.ts").toBe(withTableInputs(text));
  });

  it("has every run setting that makes sense in CI", () => {
    const ci = [SETTINGS.timeout, SETTINGS.maxWait, SETTINGS.rateWindow, SETTINGS.allowEmpty, SETTINGS.verify, SETTINGS.full];
    expect(ci.map((row) => row.input).filter((input) => !(input in declared))).toEqual([]);
  });
});

describe("withTableInputs", () => {
  it("rewrites only the inputs block, and fails where there is none", () => {
    const other = "name: x\n\ninputs:\n  stale:\n    description: gone\n\noutputs:\n  a:\n    description: kept\n";
    const written = withTableInputs(other);
    expect(written.startsWith("name: x\n\ninputs:\n  command:\n")).toBe(true);
    expect(written.endsWith("\n\noutputs:\n  a:\n    description: kept\n")).toBe(true);
    expect(written).not.toContain("stale");
    expect(() => withTableInputs("name: x\n")).toThrow("no top-level inputs");
  });
});
