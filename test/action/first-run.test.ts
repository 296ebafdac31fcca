/**
 * The example pull-request workflow works on its first run: its plan step, with the repository's
 * secrets and variables filled in as GitHub fills them, runs the committed bundle against the sandbox with a
 * config as `sitesync export` writes it (no `websites_url`). An Action error names the Action's input.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { Sandbox } from "../../src/sandbox/index.ts";
import type { FakeGitHub } from "./fake-github.ts";
import { type ActionFixture, startActionFixture } from "./fixture.ts";
import { pullRequestPayload } from "./run-action.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const API_KEY = "F1rstRunK3y000000000000000000000000000000000000000000000000000Zz";

interface Step {
  uses?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}

/** The plan job's sitesync step of the example, as written. */
const workflow = parse(readFileSync(join(ROOT, "examples", "workflows", "sitesync.yml"), "utf8")) as {
  jobs: Record<string, { steps: Step[] }>;
};
const planStep = workflow.jobs.plan?.steps.find((s) => s.uses?.includes("/sitesync@")) as Step;

/** `${{ secrets.X }}` and `${{ vars.X }}` as GitHub evaluates them: the value, or "" when unset. */
function evaluate(values: Record<string, string | undefined>, context: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    out[name] = String(value).replace(
      /\$\{\{\s*(secrets|vars)\.(\w+)\s*\}\}/g,
      (_, kind: string, key: string) => context[`${kind}.${key}`] ?? "",
    );
  }
  return out;
}

let fixture: ActionFixture<"account">;
let sandbox: Sandbox;
let github: FakeGitHub;

beforeEach(async () => {
  fixture = await startActionFixture({
    sandboxes: { account: { apiKey: API_KEY, websites: [{ domain: "blog.example.com" }] } },
    // As `sitesync export` writes it: no websites_url.
    files: () => ({ "sitesync.yaml": "version: 1\nwebsites:\n  - domain: blog.example.com\n  - domain: new.example.com\n" }),
  });
  sandbox = fixture.sandboxes.account;
  github = fixture.github;
});

afterEach(() => fixture.close());

function planAsTheExample(context: Record<string, string>) {
  return fixture.run({
    inputs: evaluate(planStep.with ?? {}, context),
    env: evaluate(planStep.env ?? {}, context),
    event: { name: "pull_request", payload: pullRequestPayload(3) },
  });
}

describe("examples/workflows/sitesync.yml on its first run", () => {
  it("plans with the secret and the variable the GitHub Action page's setup names (docs/github-action.md), and the plan names the account", async () => {
    const run = await planAsTheExample({ "secrets.SITESYNC_API_KEY": API_KEY, "vars.SITESYNC_WEBSITES_URL": sandbox.url });
    expect(run.code).toBe(0);
    expect(run.outputs.creates).toBe("1");
    expect(run.summary).toContain(`Account: ${sandbox.url}`);
    expect(github.comments[0]?.body).toContain(`Account: ${sandbox.url}`);
  });

  it("without the variable, fails naming the Action's input, never a CLI flag, and sends nothing", async () => {
    const run = await planAsTheExample({ "secrets.SITESYNC_API_KEY": API_KEY });
    expect(run.code).toBe(1);
    const error = run.commands.find((c) => c.startsWith("::error::")) ?? "";
    expect(error).toContain("websites-url input");
    expect(run.summary).toContain("websites-url input");
    expect(run.stdout + run.summary).not.toContain("--websites-url");
    expect(sandbox.requests).toHaveLength(0);
  });

  it("refuses a variable that names another account than the file, naming both", async () => {
    fixture.write({ "sitesync.yaml": `version: 1\nwebsites_url: ${sandbox.url}\nwebsites: []\n` });
    const run = await planAsTheExample({
      "secrets.SITESYNC_API_KEY": API_KEY,
      "vars.SITESYNC_WEBSITES_URL": "https://stats.other.example",
    });
    expect(run.code).toBe(1);
    const error = run.commands.find((c) => c.startsWith("::error::")) ?? "";
    expect(error).toContain(`SITESYNC_WEBSITES_URL (https://stats.other.example) names another account than websites_url`);
    expect(error).toContain(`(${sandbox.url})`);
    expect(error).toContain("set the websites-url input to choose the account on purpose");
    expect(run.summary).toContain("names another account");
    expect(sandbox.requests).toHaveLength(0);
  });
});
