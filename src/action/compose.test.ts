import { describe, expect, it } from "vitest";
import { commentBody, markerFor, summaryBody } from "./compose.ts";
import type { Report } from "./run-context.ts";

const marker = markerFor("sites/sitesync.yaml");
const bytes = (text: string) => Buffer.byteLength(text, "utf8");

function report(detailLines: number, line = "| bücher.example.com | privacy | public |"): Report {
  return {
    summary: "### sitesync plan for sitesync.yaml\n\n| Create |\n| ---: |\n| 9 |",
    details: { title: "Show the plan", body: Array.from({ length: detailLines }, () => line).join("\n") },
    notes: [],
    exitCode: 0,
  };
}

describe("commentBody", () => {
  it("starts with the marker and folds short details open", () => {
    const body = commentBody(report(3), { marker, headSha: "0123456789", runUrl: "https://github.example/r/actions/runs/1" });
    expect(body.split("\n")[0]).toBe("<!-- sitesync-plan: sites/sitesync.yaml -->");
    expect(body).toContain("<details open><summary>Show the plan</summary>");
    expect(body).toContain("<sub>sitesync · for commit 0123456 · [workflow run](https://github.example/r/actions/runs/1)</sub>");
    expect(body).not.toContain("too long");
  });

  it("cuts long details at a line, under the limit counted in bytes, and says where the rest is", () => {
    const body = commentBody(report(5000), { marker, runUrl: "https://github.example/r/actions/runs/1" }, 20_000);
    expect(bytes(body)).toBeLessThanOrEqual(20_000);
    expect(body).toMatch(
      /\n\| bücher\.example\.com \| privacy \| public \|\n\n> \[!NOTE\]\n> The plan is too long for a comment: \d+ of its 5000 lines/,
    );
    expect(body).toContain("[the workflow run](https://github.example/r/actions/runs/1)");
    expect(body).toMatch(/<\/details>\n\n<sub>sitesync · \[workflow run\]/);
    expect(body).not.toContain("<details open>");
  });

  it("cuts the summary itself when it alone is too long", () => {
    const huge: Report = { summary: Array.from({ length: 4000 }, (_, i) => `- error ${i}`).join("\n"), exitCode: 1, notes: [] };
    const body = commentBody(huge, { marker }, 10_000);
    expect(bytes(body)).toBeLessThanOrEqual(10_000);
    expect(body).toContain("- error 0\n");
    expect(body).toContain("too long for a comment");
  });
});

describe("summaryBody", () => {
  it("shows the details unfolded and points to the plan file when it must cut", () => {
    expect(summaryBody(report(2))).not.toContain("<details");
    const cut = summaryBody(report(5000), "/tmp/sitesync-plan-abcd1234.json", 30_000);
    expect(bytes(cut)).toBeLessThanOrEqual(30_000);
    expect(cut).toContain("The whole plan is in the plan file `/tmp/sitesync-plan-abcd1234.json`");
  });
});

it("markerFor keeps the HTML comment closed whatever the path", () => {
  const inside = markerFor("a--b.yaml").slice("<!--".length, -"-->".length);
  expect(inside).not.toContain("--");
});
