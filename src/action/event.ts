/**
 * What the workflow run is about, from the runner's environment: the event, the pull request (if any) and
 * whether it comes from a fork. Read from `GITHUB_EVENT_NAME` and the payload at `GITHUB_EVENT_PATH`.
 */
import { readFileSync } from "node:fs";
import type { Env } from "../run/types.ts";

interface PullRequestInfo {
  number: number;
  /** The commit the plan was made for, shown in the comment. */
  headSha: string | undefined;
  /** The base commit the pull request's change is measured from: the plan follows the change since it (DESIGN §3). */
  baseSha: string | undefined;
  /**
   * The head branch lives in another repository (or in a deleted one). Such a run gets no secrets under
   * `pull_request`, and under `pull_request_target` its config is untrusted: sitesync then never sends the
   * key anywhere, since the fork could point `websites_url` at its own server.
   */
  fork: boolean;
}

export interface ActionEvent {
  name: string;
  /** Set for `pull_request` and `pull_request_target` events. */
  pullRequest: PullRequestInfo | undefined;
  /** `owner/repo` split, when `GITHUB_REPOSITORY` is set. */
  repo: { owner: string; repo: string } | undefined;
  /** Link to this workflow run, when the runner says where it is. */
  runUrl: string | undefined;
  /** The checkout root: annotations name files relative to it. */
  workspace: string;
  /** The commit this run is for (`GITHUB_SHA`; on a push, the pushed commit). */
  sha: string | undefined;
  /** The branch this run is for (`GITHUB_REF` refs/heads/…; on a schedule, the default branch): the drift pull request's base. */
  branch: string | undefined;
}

const PULL_REQUEST_EVENTS = new Set(["pull_request", "pull_request_target"]);

/** Reads the event of this run. A missing or unreadable payload reads as "not a pull request". */
export function readEvent(env: Env): ActionEvent {
  const name = env.GITHUB_EVENT_NAME ?? "";
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? "").split("/");
  const server = env.GITHUB_SERVER_URL || "https://github.com";
  const payload = readPayload(env.GITHUB_EVENT_PATH);
  const after = (payload as { after?: unknown } | undefined)?.after;
  return {
    name,
    pullRequest: PULL_REQUEST_EVENTS.has(name) ? pullRequestOf(payload) : undefined,
    sha: env.GITHUB_SHA || (typeof after === "string" ? after : undefined),
    branch: env.GITHUB_REF?.startsWith("refs/heads/") ? env.GITHUB_REF.slice("refs/heads/".length) : undefined,
    repo: owner && repo ? { owner, repo } : undefined,
    runUrl: env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID ? `${server}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}` : undefined,
    workspace: env.GITHUB_WORKSPACE || process.cwd(),
  };
}

function readPayload(file: string | undefined): unknown {
  if (!file) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

interface PullRequestPayload {
  pull_request?: {
    number?: unknown;
    head?: { sha?: unknown; repo?: { full_name?: unknown } | null };
    base?: { sha?: unknown; repo?: { full_name?: unknown } | null };
  };
}

function pullRequestOf(payload: unknown): PullRequestInfo | undefined {
  const pr = (payload as PullRequestPayload | undefined)?.pull_request;
  if (!pr || typeof pr.number !== "number") return undefined;
  const head = pr.head?.repo?.full_name;
  const base = pr.base?.repo?.full_name;
  return {
    number: pr.number,
    headSha: typeof pr.head?.sha === "string" ? pr.head.sha : undefined,
    baseSha: typeof pr.base?.sha === "string" ? pr.base.sha : undefined,
    fork: typeof head !== "string" || head !== base,
  };
}
