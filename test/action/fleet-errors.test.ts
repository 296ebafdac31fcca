/**
 * A fleet's selection mistakes in a workflow (DESIGN §7: an Action error names the Action's input):
 * the bundle run as GitHub runs it says `the account input`, `the websites-url input`, and how to give each
 * account its key, never the CLI's `--account` or `--websites-url`; nothing is sent to the account.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.ts";
import type { FakeGitHub } from "./fake-github.ts";
import { type ActionFixture, PLAN_MARKER as MARKER, startActionFixture } from "./fixture.ts";
import { pullRequestPayload } from "./run-action.ts";

const KEY = "EuLegKey000000000000000000000000000000000000000000000000000001";

let fixture: ActionFixture<"eu">;
let eu: Sandbox;
let github: FakeGitHub;

beforeEach(async () => {
  fixture = await startActionFixture({
    sandboxes: { eu: { apiKey: KEY } },
    files: (urls) => ({
      "sitesync.yaml": [
        "version: 1",
        "accounts:",
        `  eu: { websites_url: ${urls.eu} }`,
        `  us: { websites_url: ${urls.eu}/us, api_key_env: SITESYNC_US_API_KEY }`,
        'include: ["clients/*.yaml"]',
        "",
      ].join("\n"),
      "clients/acme.yaml": "account: eu\nwebsites:\n  - domain: acme.com\n",
    }),
  });
  eu = fixture.sandboxes.eu;
  github = fixture.github;
});

afterEach(() => fixture.close());

async function plan(inputs: Record<string, string>) {
  const run = await fixture.run({
    inputs: { command: "plan", ...inputs },
    event: { name: "pull_request", payload: pullRequestPayload(7) },
  });
  const errors = run.stdout.split("\n").filter((line) => line.startsWith("::error::"));
  const comment = github.comments.find((c) => c.body.startsWith(MARKER))?.body ?? "";
  // The runner's masking commands name the key to hide it; every other line must not.
  const log = run.stdout
    .split("\n")
    .filter((line) => !line.startsWith("::add-mask::"))
    .join("\n");
  return { ...run, errors: errors.join("\n"), comment, log };
}

describe("a fleet's selection mistakes on GitHub Actions", () => {
  it("an unknown account input is named as the input, with a suggestion", async () => {
    const run = await plan({ account: "euu", "api-key": KEY });
    expect(run.code).toBe(1);
    expect(run.errors).toContain("the account input (euu): no such account in the config; did you mean eu?");
    expect(`${run.stdout}${run.comment}`).not.toContain("--account");
    expect(eu.requests).toHaveLength(0);
  });

  it("websites-url with several accounts asks for the account input, naming the fleet workflow", async () => {
    const run = await plan({ "websites-url": eu.url, "api-key": KEY });
    expect(run.code).toBe(1);
    expect(run.errors).toContain("the websites-url input applies to one account: set the account input (one of eu, us)");
    expect(run.errors).toContain("examples/workflows/fleet.yml");
    expect(`${run.stdout}${run.comment}`).not.toMatch(/--(websites-url|account)\b/);
    expect(eu.requests).toHaveLength(0);
  });

  it("several accounts without their keys say how a workflow gives each one its key", async () => {
    const run = await plan({ "api-key": KEY });
    expect(run.code).toBe(1);
    expect(run.errors).toContain("SITESYNC_US_API_KEY is not set: run account us in a leg of its own (the account input");
    expect(run.comment).toContain("SITESYNC\\_US\\_API\\_KEY: ${{ secrets.SITESYNC\\_US\\_API\\_KEY }}");
    expect(`${run.stdout}${run.comment}`).not.toContain("export the API key");
    expect(`${run.log}${run.comment}`).not.toContain(KEY);
    expect(eu.stats().writeRequests).toBe(0);
  });
});
