/**
 * DESIGN §12 at the user's end: a config's parse is bounded by what it builds (nesting depth, nodes, what
 * aliases expand to), so a hostile file is refused at its file:line:col with the bound named, exit 1, and no
 * request sent: by `validate` and `plan` (the real CLI, the sandbox over real HTTP) and by the Action's
 * bundle. The files are small, since a bound is reached within a few hundred bytes; the 20 MB file of `{[`
 * is measured by `npm run bench`.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { type FakeGitHub, startFakeGitHub } from "../action/fake-github.ts";
import { GITHUB_TOKEN, pullRequestPayload, runAction } from "../action/run-action.ts";
import { sitesync } from "../helpers/cli.ts";

const NESTED = "{[".repeat(200);
const DEPTH = "1:32 the YAML nests deeper than 32 levels (a config needs fewer than 10)";
/** Nine levels of nine aliases each: 387 million nodes once expanded, from 400 bytes. */
const LAUGHS = [
  'a: &a ["x","x","x","x","x","x","x","x","x"]',
  ..."bcdefghi".split("").map((name, i) => `${name}: &${name} [${`*${"abcdefghi"[i]},`.repeat(9).slice(0, -1)}]`),
].join("\n");

let sandbox: Sandbox;
let github: FakeGitHub;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "example.com" }] });
  github = await startFakeGitHub(GITHUB_TOKEN);
  dir = mkdtempSync(join(tmpdir(), "sitesync-bounds-"));
  writeFileSync(join(dir, "nested.yaml"), NESTED);
  writeFileSync(join(dir, "laughs.yaml"), `${LAUGHS}\n`);
});
afterAll(async () => {
  await sandbox.close();
  await github.close();
});

describe("a config that nests or expands without end", () => {
  it("validate refuses flow nesting at the bound, naming where", async () => {
    const file = join(dir, "nested.yaml");
    const result = await sitesync(["validate", "-c", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file}:${DEPTH}`);
  });

  it("validate refuses aliases that expand past the node bound, at the alias that crosses it", async () => {
    const file = join(dir, "laughs.yaml");
    const result = await sitesync(["validate", "-c", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file}:8:8 the aliases expand the file past 8,000,000 YAML nodes`);
  });

  it("plan refuses it before any request", async () => {
    const file = join(dir, "nested.yaml");
    const result = await sitesync(["plan", "-c", file, "--websites-url", sandbox.url], { env: { SITESYNC_API_KEY: sandbox.apiKey } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file}:${DEPTH}`);
    expect(sandbox.requests).toHaveLength(0);
  });

  it("the Action refuses it with an annotation at the line and column", async () => {
    const workspace = mkdtempSync(join(tmpdir(), "sitesync-ws-"));
    writeFileSync(join(workspace, "sitesync.yaml"), NESTED);
    const run = await runAction({
      workspace,
      inputs: { "api-key": sandbox.apiKey, "websites-url": sandbox.url },
      event: { name: "pull_request", payload: pullRequestPayload(3) },
      githubApiUrl: github.url,
    });
    expect(run.code).toBe(1);
    const annotation = run.commands.find((c) => c.includes("file=sitesync.yaml,line=1,col=32::"));
    expect(annotation).toContain("::the YAML nests deeper than 32 levels");
    expect(sandbox.requests).toHaveLength(0);
  });
});
