/** One parser per kind, the same for the CLI's flags and the Action's inputs; and the run's view of the values. */
import { describe, expect, it } from "vitest";
import { readSettings, readValue } from "./read-settings.ts";
import { SETTINGS } from "./settings.ts";
import { toRunSettings } from "./to-run-settings.ts";

describe("durations", () => {
  it.each([
    ["500ms", 500],
    ["30s", 30_000],
    ["1.5s", 1500],
    ["2m", 120_000],
    ["1h", 3_600_000],
  ])("reads %s as %i ms", (text, ms) => {
    expect(readValue(SETTINGS.timeout, text)).toEqual({ value: ms });
  });

  it("refuses a bare number, which meant milliseconds before, rather than guess its unit", () => {
    expect(readValue(SETTINGS.timeout, "5000")).toEqual({ problem: { code: "duration-unit", value: "5000" } });
  });

  it.each(["0s", "0ms", "0.0001ms"])("refuses %s as a timeout, and takes it as a delay of the sandbox", (text) => {
    expect(readValue(SETTINGS.maxWait, text)).toEqual({ problem: { code: "duration-zero", value: text } });
    expect(readValue(SETTINGS.latency, text)).toEqual({ value: 0 });
  });

  it("takes a bare 0 as a delay, and nothing without a unit as a timeout", () => {
    expect(readValue(SETTINGS.latency, "0")).toEqual({ value: 0 });
    expect(readValue(SETTINGS.timeout, "forever")).toEqual({ problem: { code: "duration", value: "forever" } });
  });
});

describe("counts, switches, choices", () => {
  it("reads a count within its bounds", () => {
    expect(readValue(SETTINGS.maxDeletes, "0")).toEqual({ value: 0 });
    expect(readValue(SETTINGS.concurrency, "0")).toEqual({ problem: { code: "count", min: 1, value: "0" } });
    expect(readValue(SETTINGS.concurrency, "2.5")).toEqual({ problem: { code: "count", min: 1, value: "2.5" } });
    expect(readValue(SETTINGS.port, "70000")).toEqual({ problem: { code: "count-max", max: 65_535, value: "70000" } });
    expect(readValue(SETTINGS.websiteLimit, "-1")).toEqual({ value: -1 });
  });

  it("reads the YAML core booleans an Action input may hold, and nothing else", () => {
    expect(readValue(SETTINGS.verify, "True")).toEqual({ value: true });
    expect(readValue(SETTINGS.verify, "FALSE")).toEqual({ value: false });
    expect(readValue(SETTINGS.verify, "yes")).toEqual({ problem: { code: "boolean", value: "yes" } });
  });

  it("takes one account in the Action, where a leg runs one", () => {
    expect(readValue(SETTINGS.account, ["eu"])).toEqual({ value: ["eu"] });
    expect(readValue(SETTINGS.account, ["eu", "us"])).toEqual({ problem: { code: "one", count: 2 } });
    expect(readValue(SETTINGS.target, ["a*", "b*"])).toEqual({ value: ["a*", "b*"] });
  });
});

describe("readSettings", () => {
  it("fills every setting not given with its default, and collects every problem", () => {
    const { values, problems } = readSettings(["concurrency", "timeout", "maxDeletes"], (name) =>
      name === "maxDeletes" ? "3" : name === "timeout" ? "5" : undefined,
    );
    expect(values).toMatchObject({ concurrency: 4, maxDeletes: 3, config: "sitesync.yaml", comment: true, target: [], verify: false });
    expect(problems).toEqual([{ name: "timeout", problem: { code: "duration-unit", value: "5" } }]);
  });
});

describe("toRunSettings", () => {
  const { values } = readSettings(["maxDeletes", "verify", "detailedExitcode", "rateWindow"], (name) =>
    name === "maxDeletes" ? "2" : name === "rateWindow" ? "90s" : true,
  );

  it("gives the run numbers, and only the settings of its command", () => {
    expect(toRunSettings(values, "plan")).toEqual({
      concurrency: 4,
      timeoutMs: 30_000,
      maxWaitMs: 300_000,
      rateWindowMs: 90_000,
      maxDeletes: 2,
      syncWriteOnly: false,
      allowEmpty: false,
      detailedExitcode: true,
      websitesUrl: undefined,
      projectsUrl: undefined,
    });
    expect(toRunSettings(values, "apply")).toMatchObject({ verify: true, maxDeletes: 2 });
    expect(toRunSettings(values, "apply")).not.toHaveProperty("detailedExitcode");
    expect(toRunSettings(values, "validate")).toEqual({ strictEnv: false });
  });

  it("follows a change, read in full with `full`", () => {
    expect(toRunSettings({ ...values, changedSince: "HEAD~1", full: true }, "apply").changedSince).toEqual({ ref: "HEAD~1", full: true });
    expect(toRunSettings({ ...values, target: ["a*"] }, "plan").selection).toEqual({ target: ["a*"], exclude: [] });
  });
});
