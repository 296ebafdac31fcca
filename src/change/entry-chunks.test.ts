import { describe, expect, it } from "vitest";
import { entryChunks, reducedTexts } from "./entry-chunks.ts";

const FILE = `version: 1
websites:
  # the shop
  - domain: a.example.com
    privacy: private

  - domain: b.example.com
  - domain: c.example.com
    exclude_ips:
      - 192.0.2.1
projects:
  - project: p.example.org
`;

describe("a config's text cut into its website entries", () => {
  it("cuts at each entry's - line, the list ending at the next key; the last entry holds what follows", () => {
    expect(entryChunks(FILE)).toEqual({
      head: "version: 1\nwebsites:\n  # the shop\n",
      chunks: [
        "  - domain: a.example.com\n    privacy: private\n\n",
        "  - domain: b.example.com\n",
        "  - domain: c.example.com\n    exclude_ips:\n      - 192.0.2.1\nprojects:\n  - project: p.example.org\n",
      ],
    });
  });

  it("reads CRLF files and lists at the key's own indentation", () => {
    const text = "websites:\r\n- domain: a.example.com\r\n- domain: b.example.com\r\n";
    expect(entryChunks(text)?.chunks).toEqual(["- domain: a.example.com\r\n", "- domain: b.example.com\r\n"]);
  });

  it("leaves out of both texts the entries written alike, wherever they moved", () => {
    const now = FILE.replace("  - domain: b.example.com\n", "").replace("privacy: private", "privacy: public");
    const moved = now.replace("  # the shop\n", "  # the shop\n  - domain: b.example.com\n");
    const last = FILE.slice(FILE.indexOf("  - domain: c"));
    expect(reducedTexts(FILE, moved)).toEqual({
      base: `version: 1\nwebsites:\n  # the shop\n  - domain: a.example.com\n    privacy: private\n\n${last}`,
      now: `version: 1\nwebsites:\n  # the shop\n  - domain: a.example.com\n    privacy: public\n\n${last}`,
    });
  });

  it("cuts nothing when the heads differ, or an anchor may tie entries together, or the list is a flow list", () => {
    expect(reducedTexts(FILE, FILE.replace("version: 1", "version: 1\npolicy: { prune: true }"))).toBeUndefined();
    expect(reducedTexts(FILE, FILE.replace("privacy: private", "privacy: &p private"))).toBeUndefined();
    expect(reducedTexts("websites: [{ domain: a.example.com }]\n", "websites: []\n")).toBeUndefined();
  });
});
