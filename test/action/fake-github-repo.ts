/**
 * The repository routes of the fake GitHub (fake-github.ts) that drift and check runs use, in the shapes of
 * GitHub's REST API: issues (pull requests among them, numbered together, listed with `pull_request`), pull
 * requests by head branch, the Git data API (commits, trees with inline content, refs that move only with
 * `force`), and check runs (at most 50 annotations per request, summary and text at most 65,535 characters,
 * annotations added by updates). Writes outside the workflow's `permissions:` answer 403, as GITHUB_TOKEN's do.
 */
import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";

export type Permission = "issues" | "pull-requests" | "contents" | "checks";

interface FakeIssue {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  stateReason?: string;
  login: string;
  /** A pull request: its head branch and base branch. */
  pull?: { head: string; base: string };
}

interface FakeCheckRun {
  id: number;
  name: string;
  headSha: string;
  conclusion?: string;
  output: { title?: string; summary?: string; text?: string };
  annotations: Record<string, unknown>[];
  /** How many requests wrote it (the create, then each update). */
  writes: number;
}

export interface FakeRepo {
  issues: FakeIssue[];
  checkRuns: FakeCheckRun[];
  refs: Map<string, string>;
  commits: Map<string, { tree: string; parents: string[]; message: string }>;
  trees: Map<string, { base: string | undefined; files: Map<string, string> }>;
  /** The workflow's `permissions:` (by default those examples/workflows/sitesync.yml gave before check runs). */
  grants: Set<Permission>;
  /** A file's text on a branch, as the Git data API wrote it (undefined: not written through the API). */
  fileAt(branch: string, path: string): string | undefined;
}

export function createRepo(): FakeRepo {
  const repo: FakeRepo = {
    issues: [],
    checkRuns: [],
    refs: new Map(),
    commits: new Map(),
    trees: new Map(),
    grants: new Set(["issues", "pull-requests", "contents"]),
    fileAt(branch, path) {
      const commit = repo.commits.get(repo.refs.get(`heads/${branch}`) ?? "");
      let tree = repo.trees.get(commit?.tree ?? "");
      while (tree && !tree.files.has(path)) tree = repo.trees.get(tree.base ?? "");
      return tree?.files.get(path);
    },
  };
  return repo;
}

type Body = Record<string, unknown>;
type Send = (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void;

interface Route {
  method: string;
  path: RegExp;
  needs?: Permission;
  answer(
    repo: FakeRepo,
    match: string[],
    body: Body,
    url: URL,
    login: string,
  ): [number, unknown] | [number, unknown, Record<string, string>];
}

const REPO = "^/repos/[^/]+/[^/]+";
const LIMIT = 65_535;
let next = 100;

const ROUTES: Route[] = [
  { method: "GET", path: re("/issues"), answer: (repo, _m, _b, url) => listIssues(repo, url) },
  {
    method: "POST",
    path: re("/issues"),
    needs: "issues",
    answer: (repo, _m, body, _u, login) => [201, issueView(addIssue(repo, body, login))],
  },
  { method: "PATCH", path: re("/issues/(\\d+)"), needs: "issues", answer: (repo, m, body) => editIssue(repo, Number(m[1]), body) },
  { method: "GET", path: re("/pulls"), answer: (repo, _m, _b, url) => [200, listPulls(repo, url)] },
  { method: "POST", path: re("/pulls"), needs: "pull-requests", answer: (repo, _m, body, _u, login) => openPull(repo, body, login) },
  { method: "PATCH", path: re("/pulls/(\\d+)"), needs: "pull-requests", answer: (repo, m, body) => editIssue(repo, Number(m[1]), body) },
  { method: "GET", path: re("/git/commits/([0-9a-f]+)"), answer: (repo, m) => [200, commitView(repo, m[1]!)] },
  { method: "POST", path: re("/git/trees"), needs: "contents", answer: (repo, _m, body) => addTree(repo, body) },
  { method: "POST", path: re("/git/commits"), needs: "contents", answer: (repo, _m, body) => addCommit(repo, body) },
  { method: "GET", path: re("/git/ref/(.+)"), answer: (repo, m) => refView(repo, decodeURIComponent(m[1]!)) },
  { method: "POST", path: re("/git/refs"), needs: "contents", answer: (repo, _m, body) => addRef(repo, body) },
  {
    method: "PATCH",
    path: re("/git/refs/(.+)"),
    needs: "contents",
    answer: (repo, m, body) => moveRef(repo, decodeURIComponent(m[1]!), body),
  },
  { method: "POST", path: re("/check-runs"), needs: "checks", answer: (repo, _m, body) => writeCheck(repo, undefined, body) },
  { method: "PATCH", path: re("/check-runs/(\\d+)"), needs: "checks", answer: (repo, m, body) => writeCheck(repo, Number(m[1]), body) },
];

function re(path: string): RegExp {
  return new RegExp(`${REPO}${path}$`);
}

/** Answers a repository route; false when `path` is none of them. */
export function repoRoute(repo: FakeRepo, method: string, url: URL, body: Body, res: ServerResponse, send: Send, login: string): boolean {
  for (const route of ROUTES) {
    const match = route.method === method ? route.path.exec(url.pathname) : null;
    if (!match) continue;
    if (route.needs && !repo.grants.has(route.needs)) {
      send(res, 403, { message: "Resource not accessible by integration" });
      return true;
    }
    const [status, answer, headers] = route.answer(repo, [...match], body, url, login);
    send(res, status, answer, headers ?? {});
    return true;
  }
  return false;
}

function listIssues(repo: FakeRepo, url: URL): [number, unknown, Record<string, string>] {
  const state = url.searchParams.get("state") ?? "open";
  const perPage = Number(url.searchParams.get("per_page") ?? 30);
  const page = Number(url.searchParams.get("page") ?? 1);
  const all = repo.issues.filter((i) => state === "all" || i.state === state).sort((a, b) => b.number - a.number);
  const last = Math.max(1, Math.ceil(all.length / perPage));
  const headers: Record<string, string> = {};
  if (page < last) {
    const nextPage = new URL(url);
    nextPage.searchParams.set("page", String(page + 1));
    headers.link = `<${url.origin}${nextPage.pathname}${nextPage.search}>; rel="next"`;
  }
  return [200, all.slice((page - 1) * perPage, page * perPage).map(issueView), headers];
}

function addIssue(repo: FakeRepo, body: Body, login: string, pull?: FakeIssue["pull"]): FakeIssue {
  const issue: FakeIssue = {
    number: next++,
    title: String(body.title),
    body: String(body.body ?? ""),
    state: "open",
    login,
    ...(pull ? { pull } : {}),
  };
  repo.issues.push(issue);
  return issue;
}

function editIssue(repo: FakeRepo, number: number, body: Body): [number, unknown] {
  const issue = repo.issues.find((i) => i.number === number);
  if (!issue) return [404, { message: "Not Found" }];
  if (typeof body.title === "string") issue.title = body.title;
  if (typeof body.body === "string") issue.body = body.body;
  if (body.state === "open" || body.state === "closed") issue.state = body.state;
  if (typeof body.state_reason === "string") issue.stateReason = body.state_reason;
  return [200, issueView(issue)];
}

function issueView(i: FakeIssue) {
  const kind = i.pull ? "pull" : "issues";
  return {
    number: i.number,
    title: i.title,
    body: i.body,
    state: i.state,
    state_reason: i.stateReason ?? null,
    user: { login: i.login, type: i.login.endsWith("[bot]") ? "Bot" : "User" },
    html_url: `https://github.example/acme/sites/${kind}/${i.number}`,
    ...(i.pull
      ? { pull_request: { url: `https://api.github.example/repos/acme/sites/pulls/${i.number}` }, head: { ref: i.pull.head } }
      : {}),
  };
}

function listPulls(repo: FakeRepo, url: URL): unknown[] {
  const state = url.searchParams.get("state") ?? "open";
  const head = url.searchParams.get("head")?.split(":")[1];
  return repo.issues.filter((i) => i.pull && (state === "all" || i.state === state) && (!head || i.pull.head === head)).map(issueView);
}

function openPull(repo: FakeRepo, body: Body, login: string): [number, unknown] {
  const head = String(body.head);
  if (!repo.refs.has(`heads/${head}`))
    return [422, { message: "Validation Failed", errors: [{ resource: "PullRequest", field: "head", code: "invalid" }] }];
  if (repo.issues.some((i) => i.pull?.head === head && i.state === "open")) {
    return [
      422,
      {
        message: "Validation Failed",
        errors: [{ resource: "PullRequest", code: "custom", message: `A pull request already exists for acme:${head}.` }],
      },
    ];
  }
  return [201, issueView(addIssue(repo, body, login, { head, base: String(body.base) }))];
}

const sha = (data: unknown) => createHash("sha1").update(JSON.stringify(data)).digest("hex");

/** A commit the fake did not make (the one the run checked out) has a tree of its own, holding nothing the API wrote. */
function commitView(repo: FakeRepo, commit: string) {
  return { sha: commit, tree: { sha: repo.commits.get(commit)?.tree ?? `base-tree-${commit}` }, parents: [] };
}

function addTree(repo: FakeRepo, body: Body): [number, unknown] {
  const entries = body.tree as { path?: unknown; mode?: unknown; type?: unknown; content?: unknown }[];
  if (
    !Array.isArray(entries) ||
    entries.some((e) => typeof e.path !== "string" || e.mode !== "100644" || e.type !== "blob" || typeof e.content !== "string")
  ) {
    return [422, { message: "Invalid tree info" }];
  }
  const files = new Map(entries.map((e) => [String(e.path), String(e.content)]));
  const id = sha([body.base_tree, [...files]]);
  repo.trees.set(id, { base: typeof body.base_tree === "string" ? body.base_tree : undefined, files });
  return [201, { sha: id }];
}

function addCommit(repo: FakeRepo, body: Body): [number, unknown] {
  if (typeof body.message !== "string" || !repo.trees.has(String(body.tree))) return [422, { message: "Tree SHA does not exist" }];
  const id = sha([body, next++]);
  repo.commits.set(id, { tree: String(body.tree), parents: (body.parents as string[]) ?? [], message: body.message });
  return [201, { sha: id, tree: { sha: body.tree } }];
}

function refView(repo: FakeRepo, ref: string): [number, unknown] {
  const at = repo.refs.get(ref);
  return at ? [200, { ref: `refs/${ref}`, object: { sha: at, type: "commit" } }] : [404, { message: "Not Found" }];
}

function addRef(repo: FakeRepo, body: Body): [number, unknown] {
  const ref = String(body.ref).replace(/^refs\//, "");
  if (!String(body.ref).startsWith("refs/")) return [422, { message: "Reference name must start with 'refs/'" }];
  if (repo.refs.has(ref)) return [422, { message: "Reference already exists" }];
  repo.refs.set(ref, String(body.sha));
  return [201, { ref: body.ref, object: { sha: body.sha } }];
}

function moveRef(repo: FakeRepo, ref: string, body: Body): [number, unknown] {
  const at = repo.refs.get(ref);
  if (at === undefined) return [422, { message: "Reference does not exist" }];
  const parents = repo.commits.get(String(body.sha))?.parents ?? [];
  if (body.force !== true && !parents.includes(at)) return [422, { message: "Update is not a fast forward" }];
  repo.refs.set(ref, String(body.sha));
  return [200, { ref: `refs/${ref}`, object: { sha: body.sha } }];
}

function writeCheck(repo: FakeRepo, id: number | undefined, body: Body): [number, unknown] {
  const problem = checkProblem(body, id === undefined);
  if (problem) return [422, { message: "Validation Failed", errors: [problem] }];
  const output = (body.output ?? {}) as FakeCheckRun["output"] & { annotations?: Record<string, unknown>[] };
  let run = repo.checkRuns.find((r) => r.id === id);
  if (!run) {
    if (id !== undefined) return [404, { message: "Not Found" }];
    run = { id: next++, name: String(body.name), headSha: String(body.head_sha), output: {}, annotations: [], writes: 0 };
    repo.checkRuns.push(run);
  }
  if (typeof body.conclusion === "string") run.conclusion = body.conclusion;
  const { annotations = [], ...text } = output;
  run.output = { ...run.output, ...text };
  run.annotations.push(...annotations);
  run.writes++;
  return [id === undefined ? 201 : 200, { id: run.id, html_url: `https://github.example/acme/sites/runs/${run.id}` }];
}

/** What GitHub refuses in a check run: a missing name or head_sha, a completed run without a conclusion, an output over its bounds. */
function checkProblem(body: Body, create: boolean): string | undefined {
  if (create && (typeof body.name !== "string" || typeof body.head_sha !== "string")) return "name and head_sha are required";
  if (body.status === "completed" && typeof body.conclusion !== "string") return "conclusion is required when status is completed";
  const output = body.output as { title?: unknown; summary?: unknown; text?: unknown; annotations?: unknown[] } | undefined;
  if (!output) return undefined;
  if (typeof output.title !== "string" || typeof output.summary !== "string") return "output.title and output.summary are required";
  if ([...output.summary].length > LIMIT || [...String(output.text ?? "")].length > LIMIT)
    return `output is too long (maximum is ${LIMIT} characters)`;
  const annotations = (output.annotations ?? []) as Record<string, unknown>[];
  if (annotations.length > 50) return "Only 50 annotations are allowed per request";
  for (const a of annotations) {
    if (typeof a.path !== "string" || typeof a.start_line !== "number" || typeof a.end_line !== "number" || typeof a.message !== "string")
      return "annotation is missing a field";
    if (!["notice", "warning", "failure"].includes(String(a.annotation_level))) return "annotation_level is invalid";
    if (a.start_column !== undefined && a.start_line !== a.end_line) return "start_column needs start_line equal to end_line";
  }
  return undefined;
}
