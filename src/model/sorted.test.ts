import { describe, expect, it } from "vitest";
import { lastAtMost } from "./sorted.ts";

describe("lastAtMost", () => {
  const starts = [0, 10, 20, 30];
  it("finds the last entry at most the value, an entry equal to it included", () => {
    expect([0, 9, 10, 19, 20, 29, 30, 1000].map((v) => lastAtMost(starts, v))).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });
  it("is 0 below the first entry, and for a list of one", () => {
    expect(lastAtMost([5, 8], 2)).toBe(0);
    expect(lastAtMost([0], 99)).toBe(0);
  });
});
