import { describe, expect, it } from "vitest";
import { section } from "./comment-sections.ts";
import { size } from "./compose.ts";
import { shortenSection } from "./shorten-section.ts";

const BLOCK = `<!-- sitesync-reviewed v1 sha256=${"0".repeat(64)} ${"A".repeat(2000)} -->`;
const SUMMARY = "## Account eu\n### sitesync plan for sitesync.yaml\n\n| Create |\n| ---: |\n| 400 |";

function written(detailLines: number, extra = ""): string {
  const rows = Array.from({ length: detailLines }, (_, i) => `| shop-${i}.example.com | privacy | (sensitive) |`);
  return section("eu", `${SUMMARY}\n\n<details><summary>Show the plan</summary>\n\n${extra}${rows.join("\n")}\n\n</details>\n\n${BLOCK}`);
}

const balanced = (text: string) => {
  expect(text.match(/<details/g)?.length ?? 0).toBe(text.match(/<\/details>/g)?.length ?? 0);
  expect((text.match(/^```/gm)?.length ?? 0) % 2).toBe(0);
};

describe("shortenSection", () => {
  it("keeps a section that fits as it is", () => {
    const text = written(3);
    expect(shortenSection(text, size(text))).toBe(text);
  });

  it("keeps the heading and counts first, the reviewed plan whole, closes the details, and says it was shortened", () => {
    const short = shortenSection(written(400), 5_000) ?? "";
    expect(size(short)).toBeLessThanOrEqual(5_000);
    expect(short.startsWith(`<!-- sitesync-account: eu -->\n${SUMMARY}\n`)).toBe(true);
    expect(short.endsWith(`${BLOCK}\n<!-- /sitesync-account: eu -->`)).toBe(true);
    expect(short).toContain("| shop-0.example.com | privacy | (sensitive) |");
    expect(short).not.toContain("shop-399.example.com");
    // Cut at a line: never inside a row, so never inside a redacted value.
    expect(short).not.toMatch(/\| [^\n|]*\n\n<\/details>/);
    expect(short).toContain(
      "</details>\n\n> [!NOTE]\n> This account's section was shortened to fit the comment beside the other accounts' sections. The whole plan is in the job summary of this account's leg of the workflow run.",
    );
    balanced(short);
  });

  it("closes a code fence the cut leaves open", () => {
    const fenced = `\`\`\`\n${Array.from({ length: 300 }, (_, i) => `line ${i}`).join("\n")}\n\`\`\`\n`;
    const short = shortenSection(written(0, fenced), 4_000) ?? "";
    expect(size(short)).toBeLessThanOrEqual(4_000);
    expect(short).toMatch(/line \d+\n```\n\n<\/details>/);
    balanced(short);
  });

  it("drops a reviewed plan that no longer fits, whole, and warns that the merge will apply nothing of it", () => {
    const short = shortenSection(written(400), 1_500) ?? "";
    expect(size(short)).toBeLessThanOrEqual(1_500);
    expect(short).not.toContain("sitesync-reviewed v1");
    expect(short).toContain("<!-- sitesync-reviewed-omitted too-large -->\n<!-- /sitesync-account: eu -->");
    expect(short).toContain("Its reviewed plan no longer fits: the merge will apply nothing of it unless run with apply-unreviewed.");
    expect(short).toContain("| 400 |");
    balanced(short);
  });

  it("keeps the line saying a plan was too large to carry, and says so", () => {
    const text = written(400).replace(BLOCK, "<!-- sitesync-reviewed-omitted too-large -->");
    const short = shortenSection(text, 1_500) ?? "";
    expect(size(short)).toBeLessThanOrEqual(1_500);
    expect(short).toContain("<!-- sitesync-reviewed-omitted too-large -->\n<!-- /sitesync-account: eu -->");
    expect(short).toContain(
      "Its plan is too large to carry for review: the merge will apply nothing of it unless run with apply-unreviewed.",
    );
    balanced(short);
  });

  it("gives up when not even the section's frame and note fit", () => {
    expect(shortenSection(written(400), 300)).toBeUndefined();
  });
});
