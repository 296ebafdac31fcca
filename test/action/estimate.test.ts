/**
 * One estimate for every adapter (DESIGN §5): the same plan of the same account reads the same through the
 * CLI's `plan`, the Action's apply on merge (the reviewed plan intersected with a fresh one) and the library
 * (`readLive`, `plan`, `render`): reads and writes counted, at the limit and budget the run knows.
 */
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createClient, loadConfig, plan, readLive, render } from "../../src/index.ts";
import { sitesync } from "../helpers/cli.ts";
import { type ActionFixture, oneAccount, startActionFixture } from "./fixture.ts";
import { pullRequestPayload } from "./run-action.ts";

const API_KEY = "EsT1mat3K3y000000000000000000000000000000000000000000000000000Zz";
const MERGE = "fa11ed0000000000000000000000000000000007";

let fixture: ActionFixture<"account">;

beforeEach(async () => {
  fixture = await startActionFixture({
    // 250 websites (3 pages), behind the real API's throttle of 60 a minute (the sandbox's default, which the fixture turns off).
    sandboxes: { account: { apiKey: API_KEY, seed: 250, rateLimit: 60 } },
    files: (urls) => ({
      "sitesync.yaml": oneAccount(urls.account, [
        "websites:",
        "  - domain: new.example.com",
        "    favorite: true",
        "  - domain: site-00001.example.com",
        "    email: true",
        "  - domain: site-00002.example.com",
        "    state: absent",
      ]),
    }),
  });
});

afterEach(() => fixture.close());

const estimateLine = (output: string) => output.split("\n").find((line) => line.startsWith("≈ "));

it("reads the same in the CLI's plan, the Action's apply on merge and the library", async () => {
  const { workspace, sandboxes } = fixture;
  const cli = await sitesync(["plan"], { env: { SITESYNC_API_KEY: API_KEY }, cwd: workspace });
  expect(cli.code, cli.stderr).toBe(0);

  const loaded = await loadConfig(join(workspace, "sitesync.yaml"));
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join("; "));
  const client = createClient({ websitesUrl: sandboxes.account.url, apiKey: API_KEY });
  const live = await readLive(client, loaded.config);
  const library = plan(loaded.config, live, { configFile: "sitesync.yaml", configDigest: loaded.config.digest, rate: client.stats().rate });

  const onPullRequest = await fixture.run({
    inputs: { "api-key": API_KEY },
    event: { name: "pull_request", payload: pullRequestPayload(7) },
  });
  expect(onPullRequest.code, onPullRequest.stdout).toBe(0);
  fixture.merged(MERGE);
  const onMerge = await fixture.run({
    inputs: { command: "apply", "api-key": API_KEY },
    event: { name: "push", payload: { ref: "refs/heads/main", after: MERGE } },
    env: { GITHUB_SHA: MERGE },
  });
  expect(onMerge.code, onMerge.stdout).toBe(0);
  expect(onMerge.outputs).toMatchObject({ "review-status": "applied", applied: "3" });

  // 3 pages read, 4 writes (the favorite create is a POST and a PUT), all within the minute's 60.
  const expected = "≈ 7 requests: 3 reads, 4 writes; within the rate limit (60/min).";
  expect(estimateLine(cli.stdout)).toBe(expected);
  expect(estimateLine(render(library, "text"))).toBe(expected);
  expect(estimateLine(onMerge.stdout)).toBe(expected);
});
