import { describe, expect, it } from "vitest";
import { section, sectionBudget, sectionOf, withSection } from "./comment-sections.ts";
import { COMMENT_LIMIT, size } from "./compose.ts";

const MARKER = "<!-- sitesync-plan: sitesync.yaml -->";
const BLOCK = (account: string) => `<!-- sitesync-reviewed v1 sha256=${"0".repeat(64)} ${account}${"A".repeat(1000)} -->`;

/** A section of `bytes` bytes: heading, counts, rows, its reviewed plan. */
function sized(account: string, bytes: number): string {
  const head = `## Account ${account}\n\n| Create |\n| ---: |\n| 9 |\n\n<details><summary>Show the plan</summary>\n\n`;
  const tail = `\n\n</details>\n\n${BLOCK(account)}`;
  const frame = size(section(account, head + tail));
  const rows = "| shop.example.com | privacy | public |\n".repeat(Math.ceil((bytes - frame) / 39)).slice(0, bytes - frame);
  const text = section(account, `${head}${rows.trimEnd()}${tail}`);
  return text;
}

const comment = (...sections: string[]) => `${MARKER}\n${sections.join("\n\n")}\n`;

describe("sectionBudget", () => {
  it("shares the comment so that every account's full section fits together, marker and separators included", () => {
    for (const accounts of [1, 2, 6, 37]) {
      const budget = sectionBudget(MARKER, accounts);
      const names = Array.from({ length: accounts }, (_, i) => `acct${i}`);
      const full = names.map((name) => "x".repeat(budget - size(section(name, ""))));
      const body = names.reduce((b, name, i) => withSection(MARKER, [b], name, section(name, full[i] ?? ""), names), "");
      expect(size(body), `${accounts} accounts`).toBeLessThanOrEqual(COMMENT_LIMIT);
      for (const name of names) expect(size(sectionOf(body, name) ?? "")).toBe(budget);
    }
  });

  it("gives one account nearly the whole comment, and two accounts half each, not a quarter", () => {
    expect(sectionBudget(MARKER, 1)).toBe(COMMENT_LIMIT - size(MARKER) - 4);
    expect(sectionBudget(MARKER, 2)).toBeGreaterThan(32_000);
  });
});

describe("withSection", () => {
  it("keeps every section as written when the comment fits", () => {
    const body = withSection(MARKER, [comment(sized("us", 20_000))], "eu", sized("eu", 20_000), ["eu", "us"]);
    expect(body).toBe(comment(sized("eu", 20_000), sized("us", 20_000)));
  });

  it("drops the section of an account no longer in the config before it shortens anyone's", () => {
    const stale = comment(sized("gone", 40_000), sized("us", 20_000));
    const body = withSection(MARKER, [stale], "eu", sized("eu", 20_000), ["eu", "us"]);
    expect(body).toBe(comment(sized("eu", 20_000), sized("us", 20_000)));
  });

  it("shortens sections written for a smaller fleet to their share, largest first, never its own, within the limit", () => {
    const names = ["a", "b", "c", "d", "e", "f"];
    const budget = sectionBudget(MARKER, names.length);
    // a and b were written when the config had two accounts; c, d, e by this run's legs.
    const before = comment(sized("a", 30_000), sized("b", 25_000), ...["c", "d", "e"].map((n) => sized(n, budget)));
    const own = sized("f", budget);
    const body = withSection(MARKER, [before], "f", own, names);
    expect(size(body)).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(sectionOf(body, "f")).toBe(own);
    for (const name of ["c", "d", "e"]) expect(sectionOf(body, name)).toBe(sized(name, budget));
    for (const name of ["a", "b"]) {
      const short = sectionOf(body, name) ?? "";
      expect(size(short)).toBeLessThanOrEqual(budget);
      expect(short).toContain(`## Account ${name}\n\n| Create |\n| ---: |\n| 9 |`);
      expect(short).toContain(BLOCK(name));
      expect(short).toContain("This account's section was shortened to fit the comment");
    }
  });

  it("shortens only as much as the limit needs: the largest other section first", () => {
    const before = comment(sized("a", 30_000), sized("b", 20_000));
    const body = withSection(MARKER, [before], "c", sized("c", 20_000), ["a", "b", "c"]);
    expect(size(body)).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(sectionOf(body, "a")).toContain("was shortened");
    expect(sectionOf(body, "b")).toBe(sized("b", 20_000));
  });

  it("fits whatever a leg that could not load the config finds, shortening its own section last", () => {
    const before = comment(sized("a", 40_000), sized("b", 40_000));
    const body = withSection(MARKER, [before], "c", sized("c", 40_000));
    expect(size(body)).toBeLessThanOrEqual(COMMENT_LIMIT);
    for (const name of ["a", "b", "c"]) expect(sectionOf(body, name)).toContain(`## Account ${name}`);
  });

  it("refuses, with what to do, a fleet too large for any share to hold a section", () => {
    const names = Array.from({ length: 250 }, (_, i) => `acct${i}`);
    const before = comment(...names.slice(1).map((name) => sized(name, 1_500)));
    expect(() => withSection(MARKER, [before], "acct0", sized("acct0", 1_500), names)).toThrow(
      /cannot hold 250 accounts' sections within GitHub's 65536 characters: split the fleet over several config files/,
    );
  });
});
