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

  it("cuts a file of line feeds where it cuts the same file with CRLF: the two scans agree at every edge", () => {
    // The lines an entry list can meet: entries, nested items, comments, blanks, scalars that start with -,
    // less indented keys, tabs, and entries with nothing after the dash.
    const lines = [
      "  - domain: a.example.com",
      "    privacy: private",
      "  -",
      "  -\tdomain: t.example.com",
      "  -x",
      "  -1",
      "      - 192.0.2.1",
      "  # a comment",
      "#top",
      "",
      "   ",
      "    - deeper",
      " - one space",
      "  key: value",
      "\tkey: tab",
      "projects:",
      "  - project: p.example.org",
    ];
    let seed = 7;
    const pick = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return lines[seed % lines.length] as string;
    };
    for (let n = 0; n < 400; n++) {
      const body = Array.from({ length: 1 + (n % 12) }, pick);
      const text = `version: 1\nwebsites:\n  - domain: first.example.com\n${body.join("\n")}${n % 2 ? "\n" : ""}`;
      const crlf = entryChunks(text.replaceAll("\n", "\r\n"));
      const lf = entryChunks(text);
      expect(lf && { head: lf.head.replaceAll("\n", "\r\n"), chunks: lf.chunks.map((c) => c.replaceAll("\n", "\r\n")) }).toEqual(crlf);
    }
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

  it("keeps exactly the entries one side writes and the other does not, however many, edited, moved or repeated", () => {
    const entry = (n: number, privacy = "public") => `  - domain: s${n}.example.com\n    privacy: ${privacy}\n`;
    const file = (entries: string[]) => `version: 1\nwebsites:\n${entries.join("")}  - domain: last.example.com\n`;
    const base = Array.from({ length: 300 }, (_, n) => entry(n % 290));
    const edited = base.map((e, n) => (n % 97 === 5 ? entry(n, "private") : e));
    const cases = [
      edited,
      [...base.slice(0, 150), entry(1000), entry(1001), ...base.slice(150)],
      base.filter((_, n) => n !== 7 && n !== 299),
      [...base].reverse(),
      [entry(2000), ...edited.slice(1, 200), entry(5), entry(5)],
    ];
    for (const now of cases) {
      const reduced = reducedTexts(file(base), file(now));
      const kept = (text: string | undefined) => (entryChunks(text ?? "")?.chunks.slice(0, -1) ?? []).sort();
      expect(kept(reduced?.base)).toEqual(difference(base, now).sort());
      expect(kept(reduced?.now)).toEqual(difference(now, base).sort());
    }
  });
});

/** `a` less `b`, each entry as many times as `a` holds it more often than `b`. */
function difference(a: string[], b: string[]): string[] {
  const left = [...b];
  return a.filter((item) => {
    const at = left.indexOf(item);
    if (at === -1) return true;
    left.splice(at, 1);
    return false;
  });
}
