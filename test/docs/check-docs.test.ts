/** The checks that keep the docs true find what a reader would trip on: a dead link or anchor, a flag the CLI refuses. */
import { describe, expect, it } from "vitest";
import { anchorsOf, commandLinesOf, commandProblems, githubSlug, linkProblems } from "./check-docs.ts";

const files: Record<string, string> = {
  "docs/fleets.md": "# Fleets\n\n## Many files, many accounts\n\n## Notes\n\n## Notes\n",
  "examples/sitesync.yaml": "",
};
const read = (path: string) => files[path];

describe("githubSlug", () => {
  it("makes the anchors GitHub makes", () => {
    expect(githubSlug("The run as events: `--format events`")).toBe("the-run-as-events---format-events");
    expect(githubSlug("Adopting live changes, or reverting them")).toBe("adopting-live-changes-or-reverting-them");
    expect(githubSlug("How strong is the suite: `npm run mutants`")).toBe("how-strong-is-the-suite-npm-run-mutants");
    expect(githubSlug("Partial plans: `--target` and `--exclude`")).toBe("partial-plans---target-and---exclude");
    expect(githubSlug("See [the sandbox](sandbox.md) & more")).toBe("see-the-sandbox--more");
  });

  it("numbers a repeated heading, and skips headings in code", () => {
    expect([...anchorsOf("# A\n## Notes\n```sh\n# not a heading\n```\n## Notes\n")]).toEqual(["a", "notes", "notes-1"]);
  });
});

describe("linkProblems", () => {
  it("passes links to files and headings that exist, and web links", () => {
    const text =
      "[a](docs/fleets.md#many-files-many-accounts), [b](docs/fleets.md#notes-1), [c](examples/sitesync.yaml), [d](https://x.y/#z), [e](#top)\n\n# Top\n";
    expect(linkProblems("README.md", text, read)).toEqual([]);
  });

  it("fails on a link to a file that does not exist, naming the line", () => {
    expect(linkProblems("README.md", "intro\n\nSee [fleets](docs/fleet.md).\n", read)).toEqual([
      { file: "README.md", line: 3, message: "link to docs/fleet.md: docs/fleet.md does not exist" },
    ]);
  });

  it("fails on an anchor that no heading makes, here or in another file", () => {
    expect(linkProblems("docs/x.md", "[a](fleets.md#many-accounts) [b](#nowhere)\n", read).map((p) => p.message)).toEqual([
      "link to fleets.md#many-accounts: docs/fleets.md has no heading #many-accounts",
      "link to #nowhere: docs/x.md has no heading #nowhere",
    ]);
  });

  it("reads no link inside code", () => {
    expect(linkProblems("README.md", "`[a](gone.md)`\n```md\n[b](gone.md)\n```\n", read)).toEqual([]);
  });
});

describe("commandLinesOf", () => {
  it("takes sitesync commands from shell blocks as the CLI gets them, not what a console block shows printed", () => {
    const text = [
      "```sh",
      "$ npx sitesync plan --out plan.json && sitesync apply plan.json   # comment",
      "SITESYNC_API_KEY=... sitesync plan --target 'shop-*.example.com' | jq .",
      'sitesync show plan.json --format markdown >> "$GITHUB_STEP_SUMMARY"',
      "npx sitesync sandbox --seed 250 &",
      "npm test",
      "```",
      "```console",
      "$ sitesync validate",
      "sitesync sandbox listening on http://127.0.0.1:40123",
      "```",
      "```yaml",
      "sitesync: not a command",
      "```",
      "sitesync plan --outside-a-block",
    ].join("\n");
    expect(commandLinesOf(text).map((c) => [c.line, ...c.argv])).toEqual([
      [2, "plan", "--out", "plan.json"],
      [2, "apply", "plan.json"],
      [3, "plan", "--target", "shop-*.example.com"],
      [4, "show", "plan.json", "--format", "markdown"],
      [5, "sandbox", "--seed", "250"],
      [9, "validate"],
    ]);
  });
});

describe("commandProblems", () => {
  it("passes command lines the CLI reads", async () => {
    const text =
      "```console\n$ sitesync plan --changed-since origin/main --full\n$ sitesync export --update sitesync.yaml --dry-run\n```\n";
    expect(await commandProblems("docs/x.md", text)).toEqual([]);
  });

  it("fails on a misspelled flag with the CLI's own did-you-mean", async () => {
    const text = "```sh\nsitesync plan --detailed-exitcod\n```\n";
    expect(await commandProblems("docs/x.md", text)).toEqual([
      {
        file: "docs/x.md",
        line: 2,
        message: "sitesync plan --detailed-exitcod: unknown flag --detailed-exitcod; did you mean --detailed-exitcode? (see --help)",
      },
    ]);
  });

  it("fails on a mistyped command, a flag of another command and a value the table refuses", async () => {
    const text = "```bash\nsitesync paln\nsitesync validate --out x\nsitesync plan --timeout 5000\n```\n";
    const messages = (await commandProblems("docs/x.md", text)).map((p) => p.message);
    expect(messages).toHaveLength(3);
    expect(messages[0]).toContain('unknown command "paln": did you mean plan?');
    expect(messages[1]).toContain("unknown flag --out");
    expect(messages[2]).toContain("--timeout");
  });
});
