import { describe, expect, it } from "vitest";
import type { ConfigChange } from "../model/config-change.ts";
import { DEFAULT_POLICY } from "../model/policy.ts";
import { namesToRead } from "./names-to-read.ts";

const change: ConfigChange = {
  ref: "HEAD~1",
  websites: [
    { domain: "a.example.com", touch: "changed", edited: ["email"], send: [] },
    { domain: "gone.example.com", touch: "removed", edited: [], send: [] },
    { domain: "old.example.com", touch: "tombstoned", edited: [], send: [] },
    { domain: "tmp-1.example.org", touch: "added", edited: [], send: [] },
  ],
  projects: [
    { project: "p.example.org", touch: "removed" },
    { project: "q.example.org", touch: "tombstoned" },
  ],
  fullRead: [],
};

describe("namesToRead", () => {
  it("looks up a removed entry only under prune, and never an ignored name", () => {
    const policy = { ...DEFAULT_POLICY, ignore: ["tmp-*"] };
    expect(namesToRead(change, policy)).toEqual({ websites: ["a.example.com", "old.example.com"], projects: ["q.example.org"] });
    expect(namesToRead(change, { ...policy, prune: true })).toEqual({
      websites: ["a.example.com", "gone.example.com", "old.example.com"],
      projects: ["p.example.org", "q.example.org"],
    });
  });
});
