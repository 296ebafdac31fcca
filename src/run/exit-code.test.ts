import { describe, expect, it } from "vitest";
import { ApiError, SafetyError, UsageError } from "../errors.ts";
import { exitCodeOf, exitCodeOfRun, type RunFacts, stopSignalOf, worstExitCode } from "./exit-code.ts";

const planned: RunFacts = { refused: false, changes: 3, detailedExitcode: false };
const applied = { aborted: false, failed: 0, skipped: 0, unconverged: 0 };

describe("exit codes (DESIGN §7)", () => {
  it.each([
    ["a usage error", new UsageError("x"), 1],
    ["a refused plan or stale saved plan", new SafetyError("max-deletes", "x"), 4],
    ["a listing that failed its integrity checks", new ApiError({ kind: "integrity", method: "GET", url: "u", message: "x" }), 4],
    ["a 500", new ApiError({ kind: "http", method: "GET", url: "u", status: 500, message: "x" }), 1],
  ])("%s exits %i", (_, error, code) => {
    expect(exitCodeOf(error)).toBe(code);
    expect(exitCodeOfRun({ ...planned, error })).toBe(code);
  });

  it.each([
    ["changes without --detailed-exitcode", planned, 0],
    ["changes with --detailed-exitcode", { ...planned, detailedExitcode: true }, 2],
    ["no changes with --detailed-exitcode", { ...planned, changes: 0, detailedExitcode: true }, 0],
    ["a refused plan", { ...planned, refused: true, detailedExitcode: true }, 4],
    ["an apply that stopped early", { ...planned, applied: { ...applied, aborted: true, failed: 1 } }, 1],
    ["an apply with a failure", { ...planned, applied: { ...applied, failed: 1, skipped: 1 } }, 3],
    ["an apply that did not converge", { ...planned, applied: { ...applied, unconverged: 1 } }, 3],
    ["an apply that skipped stale changes", { ...planned, applied: { ...applied, skipped: 2 } }, 4],
    ["a clean apply", { ...planned, detailedExitcode: true, applied }, 0],
  ] as const)("%s exits %i", (_, facts, code) => {
    expect(exitCodeOfRun(facts)).toBe(code);
  });
});

describe("a run of many accounts exits with its worst account's code (DESIGN §2)", () => {
  it.each([
    [[], 0],
    [[0, 0], 0],
    [[0, 2], 2],
    [[2, 4, 0], 4],
    [[4, 3], 3],
    [[3, 1, 4], 1],
    [[1, 143], 143],
    [[143, 130, 1], 130],
  ])("%j exits %i", (codes, worst) => {
    expect(worstExitCode(codes)).toBe(worst);
  });
});

describe("stopSignalOf", () => {
  it("is the signal a stop was aborted with, and nothing for a stop not aborted or aborted otherwise", () => {
    const stopped = (reason?: unknown) => {
      const controller = new AbortController();
      controller.abort(reason);
      return controller.signal;
    };
    expect(stopSignalOf(stopped("SIGINT"))).toBe("SIGINT");
    expect(stopSignalOf(stopped("SIGTERM"))).toBe("SIGTERM");
    expect(stopSignalOf(stopped())).toBeUndefined();
    expect(stopSignalOf(new AbortController().signal)).toBeUndefined();
    expect(stopSignalOf(undefined)).toBeUndefined();
  });
});
