import { describe, expect, it } from "vitest";
import type { Change } from "../plan/types.ts";
import { changeLine } from "./change-line.ts";

const update: Change = {
  kind: "website",
  action: "update",
  domain: "example.com",
  id: 7,
  fingerprint: "0123456789abcdef",
  fields: [
    { field: "privacy", before: 2, after: 0 },
    { field: "email", before: 0, after: 1 },
  ],
};
const prune: Change = {
  kind: "website",
  action: "delete",
  domain: "bad\u001b[31m.example.com",
  id: 9,
  reason: "prune",
  fingerprint: "0123456789abcdef",
};

describe("changeLine", () => {
  it("names values the way the config writes them (apply --verify): privacy password, not 2", () => {
    expect(changeLine(update, { fields: "values" })).toBe("update example.com (id 7): privacy password → public, email false → true");
  });

  it("gives annotations field names only and says what a delete destroys", () => {
    expect(changeLine(update, { kind: true, fields: "names", consequence: true })).toBe(
      "update website example.com (id 7): privacy, email",
    );
    expect(changeLine(prune, { kind: true, reason: true, consequence: true })).toBe(
      "delete website bad\\e[31m.example.com (id 9, not listed, prune on): destroys its collected statistics",
    );
  });
});
