/**
 * Server-echoed secrets and terminal escapes in the Action (DESIGN §12; the bundle, as a workflow runs it): against a server that repeats the
 * secrets it is sent and lists a domain of terminal escapes, no log line, annotation, job summary, output or
 * comment holds the key or the password, none reveals the password by its effect (it equals a domain's first
 * label), and no raw control character or forged line gets through.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EchoServer, echoWebsite, FORGED, INJECTION, startEchoServer } from "../hostile/echo-server.ts";
import type { FakeGitHub } from "./fake-github.ts";
import { type ActionFixture, startActionFixture } from "./fixture.ts";
import { type ActionRun, pullRequestPayload, runAction } from "./run-action.ts";

const API_KEY = "AcTi0nEch0K3y0000000000000000000000000000000000000000000000Zz";
const PASSWORD = "shop";
const WITHHELD = "the server&#39;s message was withheld|the server's message was withheld";

let server: EchoServer;
let fixture: ActionFixture<never>;
let github: FakeGitHub;
let workspace: string;
beforeAll(async () => {
  server = await startEchoServer([echoWebsite(1, "shop.example.com"), echoWebsite(2, `evil.example.com${INJECTION}`)]);
  const lines = ["version: 1", `websites_url: ${server.url}`, "policy:", "  prune: true", "websites:"];
  lines.push("  - domain: shop.example.com", "    privacy: password", "    password: ${STATS_PASSWORD}");
  fixture = await startActionFixture({ files: () => ({ "sitesync.yaml": `${lines.join("\n")}\n` }) });
  ({ github, workspace } = fixture);
});
afterAll(async () => {
  await server.close();
  await fixture.close();
});

function everything(run: ActionRun): Record<string, string> {
  const planFile = run.outputs["plan-file"];
  return {
    log: run.stdout
      .split("\n")
      .filter((line) => !line.startsWith("::add-mask::"))
      .join("\n"),
    stderr: run.stderr,
    summary: run.summary,
    outputs: JSON.stringify(run.outputs),
    ...(planFile ? { "plan file": readFileSync(planFile, "utf8") } : {}),
    comments: github.comments.map((c) => c.body).join("\n"),
  };
}

function expectInert(run: ActionRun): void {
  // A short password is not handed to the runner's masking: it would print `***.example.com`.
  expect(run.commands).toContain(`::add-mask::${API_KEY}`);
  expect(run.commands).not.toContain(`::add-mask::${PASSWORD}`);
  for (const [where, text] of Object.entries(everything(run))) {
    expect(text, where).not.toContain(API_KEY);
    expect(text, where).not.toContain(`«${PASSWORD}»`);
    expect(text, where).not.toContain("is too weak");
    expect(text, where).not.toContain("(sensitive).");
    expect(text, where).not.toContain("\u001b");
    const lines = text.split("\n").map((line) => line.replace(/^[\s>|"-]+/, ""));
    expect(
      lines.filter((line) => line.startsWith(FORGED)),
      where,
    ).toEqual([]);
  }
}

describe("the Action against a server that echoes secrets", () => {
  it("plans on a pull request: the domains whole in the log, the summary and the comment, nothing else", async () => {
    const run = await fixture.run({
      inputs: { "api-key": API_KEY },
      event: { name: "pull_request", payload: pullRequestPayload(7) },
      env: { STATS_PASSWORD: PASSWORD },
    });
    expect(run.code, run.stderr).toBe(0);
    expectInert(run);
    expect(run.summary).toContain("shop.example.com");
    expect(github.comments.at(-1)?.body).toContain("shop.example.com");
    expect(run.commands).toContainEqual(
      expect.stringMatching(/^::warning title=sitesync delete::delete website evil\.example\.com\\e\[2k/),
    );
  });

  it("applies (a deliberate unreviewed run): the withheld messages in the annotations, the summary and the log", async () => {
    const inputs = { command: "apply", "api-key": API_KEY, "apply-unreviewed": "true" };
    const run = await runAction({ workspace, inputs, event: { name: "workflow_dispatch" }, env: { STATS_PASSWORD: PASSWORD } });
    expect(run.code, run.stderr).toBe(3);
    expectInert(run);
    expect(run.summary).toMatch(new RegExp(WITHHELD));
    expect(run.commands).toContainEqual(
      expect.stringMatching(/^::error title=sitesync apply failed.*::update website shop\.example\.com.*failed: .*withheld/),
    );
  });
});
