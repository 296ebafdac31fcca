/**
 * One estimate for every adapter (DESIGN §5): the same plan of the same account reads the same through the
 * CLI's `plan`, the Action's apply on merge (the reviewed plan intersected with a fresh one) and the library
 * (`readLive`, `plan`, `render`): reads and writes counted, at the limit and budget the run knows.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createClient, loadConfig, plan, readLive, render } from "../../src/index.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync } from "../helpers/cli.ts";
import { type FakeGitHub, startFakeGitHub } from "./fake-github.ts";
import { GITHUB_TOKEN, pullRequestPayload, runAction } from "./run-action.ts";

const API_KEY = "EsT1mat3K3y000000000000000000000000000000000000000000000000000Zz";
const MERGE = "fa11ed0000000000000000000000000000000007";
const HEAD = "0123456789abcdef0123456789abcdef01234567";

let sandbox: Sandbox;
let github: FakeGitHub;
let workspace: string;

beforeEach(async () => {
  // 250 websites (3 pages), behind the real API's throttle of 60 a minute (the sandbox's default).
  sandbox = await startSandbox({ apiKey: API_KEY, seed: 250 });
  github = await startFakeGitHub(GITHUB_TOKEN);
  workspace = mkdtempSync(join(tmpdir(), "sitesync-estimate-"));
  const config = [
    "version: 1",
    `websites_url: ${sandbox.url}`,
    "websites:",
    "  - domain: new.example.com",
    "    favorite: true",
    "  - domain: site-00001.example.com",
    "    email: true",
    "  - domain: site-00002.example.com",
    "    state: absent",
  ];
  writeFileSync(join(workspace, "sitesync.yaml"), `${config.join("\n")}\n`);
});

afterEach(async () => {
  await sandbox.close();
  await github.close();
});

const estimateLine = (output: string) => output.split("\n").find((line) => line.startsWith("≈ "));

it("reads the same in the CLI's plan, the Action's apply on merge and the library", async () => {
  const cli = await sitesync(["plan"], { env: { SITESYNC_API_KEY: API_KEY }, cwd: workspace });
  expect(cli.code, cli.stderr).toBe(0);

  const loaded = await loadConfig(join(workspace, "sitesync.yaml"));
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join("; "));
  const client = createClient({ websitesUrl: sandbox.url, apiKey: API_KEY });
  const live = await readLive(client, loaded.config);
  const library = plan(loaded.config, live, { configFile: "sitesync.yaml", configDigest: loaded.config.digest, rate: client.stats().rate });

  const onPullRequest = await runAction({
    workspace,
    inputs: { "api-key": API_KEY },
    event: { name: "pull_request", payload: pullRequestPayload(7) },
    githubApiUrl: github.url,
  });
  expect(onPullRequest.code, onPullRequest.stdout).toBe(0);
  github.pulls.push({ number: 7, headSha: HEAD, mergeCommitSha: MERGE });
  const onMerge = await runAction({
    workspace,
    inputs: { command: "apply", "api-key": API_KEY },
    event: { name: "push", payload: { ref: "refs/heads/main", after: MERGE } },
    env: { GITHUB_SHA: MERGE },
    githubApiUrl: github.url,
  });
  expect(onMerge.code, onMerge.stdout).toBe(0);
  expect(onMerge.outputs).toMatchObject({ "review-status": "applied", applied: "3" });

  // 3 pages read, 4 writes (the favorite create is a POST and a PUT), all within the minute's 60.
  const expected = "≈ 7 requests: 3 reads, 4 writes; within the rate limit (60/min).";
  expect(estimateLine(cli.stdout)).toBe(expected);
  expect(estimateLine(render(library, "text"))).toBe(expected);
  expect(estimateLine(onMerge.stdout)).toBe(expected);
});
