import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readEvent } from "./event.ts";

function payloadFile(payload: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), "sitesync-event-")), "event.json");
  writeFileSync(file, JSON.stringify(payload));
  return file;
}

const pr = (head: unknown) => ({
  pull_request: { number: 12, head: { sha: "abc", repo: head }, base: { sha: "def", repo: { full_name: "acme/sites" } } },
});
const env = (name: string, payload: unknown) => ({
  GITHUB_EVENT_NAME: name,
  GITHUB_EVENT_PATH: payloadFile(payload),
  GITHUB_REPOSITORY: "acme/sites",
});

describe("readEvent", () => {
  it("reads a pull request from this repository as trusted, with the base commit its change is measured from", () => {
    expect(readEvent(env("pull_request", pr({ full_name: "acme/sites" }))).pullRequest).toEqual({
      number: 12,
      headSha: "abc",
      baseSha: "def",
      fork: false,
    });
  });

  it.each([
    ["another repository", { full_name: "stranger/sites" }],
    ["a deleted fork", null],
  ])("reads a pull request from %s as a fork", (_, head) => {
    expect(readEvent(env("pull_request_target", pr(head))).pullRequest?.fork).toBe(true);
  });

  it("has no pull request on push, and links the run when the runner says where it is", () => {
    const event = readEvent({
      ...env("push", pr({ full_name: "acme/sites" })),
      GITHUB_RUN_ID: "99",
      GITHUB_SERVER_URL: "https://ghe.example",
    });
    expect(event.pullRequest).toBeUndefined();
    expect(event.runUrl).toBe("https://ghe.example/acme/sites/actions/runs/99");
    expect(event.repo).toEqual({ owner: "acme", repo: "sites" });
  });
});
