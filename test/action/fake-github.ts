/**
 * A local imitation of the few GitHub routes the Action uses: list (paginated with a Link header), create,
 * update and delete issue comments; the pull requests associated with a commit; who the token is (GraphQL
 * `viewer`, REST `GET /user`, which installation tokens may not call), and GitHub's refusal (422) of a comment
 * body over 65,536 characters; and the repository's issues, pull requests, Git data and check runs
 * (fake-github-repo.ts). node:http on 127.0.0.1, port 0.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createRepo, type FakeRepo, repoRoute } from "./fake-github-repo.ts";

interface FakeComment {
  id: number;
  issue: number;
  body: string;
  login: string;
}

interface FakePull {
  number: number;
  headSha: string;
  /** The commit merging it made on the default branch; undefined while open. */
  mergeCommitSha?: string;
  /** Other commits it is associated with (its own commits). */
  commits?: string[];
  /**
   * Closed without merging: GitHub then shows `state: "closed"`, `merged_at: null`, and still a
   * `merge_commit_sha` (its test merge), so only `merged_at` tells it apart.
   */
  closedUnmerged?: boolean;
}

export interface FakeGitHub {
  url: string;
  comments: FakeComment[];
  pulls: FakePull[];
  /**
   * The login of the token, as GraphQL `viewer` answers (and the author of the comments it writes); an
   * installation token (`ghs_...`) gets 403 from `GET /user`. Undefined: GraphQL fails too.
   */
  viewer: string | undefined;
  /** The author of comments written through the API (default: `viewer`, else github-actions[bot]). */
  commentAuthor?: string;
  /** Every request as `METHOD /path?query`. */
  requests: string[];
  /** Answer every write with this status: 403 as GitHub does for a fork's read-only token, 5xx for an outage. */
  failWrites: number | undefined;
  /** How many writes were refused with 422 for a body over 65,536 characters. */
  refused: number;
  /** Issues, pull requests, the Git data API and check runs (fake-github-repo.ts), and the workflow's permissions. */
  repo: FakeRepo;
  /** Adds comments by someone else (to make the pull request's conversation span several pages). */
  seed(issue: number, count: number): void;
  close(): Promise<void>;
}

const COMMENT_LIMIT = 65_536;
const LIST = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/;
const ONE = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/;
const PULLS = /^\/repos\/([^/]+)\/([^/]+)\/commits\/([0-9a-f]+)\/pulls$/;

/** Starts the fake; only requests carrying `token <token>` are accepted. */
export async function startFakeGitHub(token: string): Promise<FakeGitHub> {
  let nextId = 1000;
  const fake: FakeGitHub = {
    url: "",
    comments: [],
    pulls: [],
    viewer: "github-actions[bot]",
    requests: [],
    failWrites: undefined,
    refused: 0,
    repo: createRepo(),
    seed(issue, count) {
      for (let i = 0; i < count; i++) fake.comments.push({ id: nextId++, issue, body: `LGTM ${i}`, login: "someone" });
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://fake");
    fake.requests.push(`${req.method} ${url.pathname}${url.search}`);
    const body = await readJson(req);
    if (req.headers.authorization !== `token ${token}`) return send(res, 401, { message: "Bad credentials" });
    if (url.pathname === "/graphql" && req.method === "POST") {
      if (!fake.viewer) return send(res, 200, { data: null, errors: [{ message: "Resource not accessible by integration" }] });
      return send(res, 200, { data: { viewer: { login: fake.viewer } } });
    }
    if (url.pathname === "/user" && req.method === "GET") {
      if (token.startsWith("ghs_") || !fake.viewer) return send(res, 403, { message: "Resource not accessible by integration" });
      return send(res, 200, { login: fake.viewer });
    }
    const associated = PULLS.exec(url.pathname);
    if (associated && req.method === "GET") {
      const sha = associated[3]!;
      const pulls = fake.pulls.filter((p) => p.mergeCommitSha === sha || p.headSha === sha || p.commits?.includes(sha));
      return send(res, 200, pulls.map(pullView));
    }
    if (req.method !== "GET" && fake.failWrites)
      return send(res, fake.failWrites, { message: fake.failWrites === 403 ? "Resource not accessible by integration" : "Server Error" });
    // GitHub refuses a comment body over 65,536 characters, and the comment is then not written.
    if ((req.method === "POST" || req.method === "PATCH") && [...String(body.body ?? "")].length > COMMENT_LIMIT) {
      fake.refused++;
      return send(res, 422, {
        message: "Validation Failed",
        errors: [
          { resource: "IssueComment", code: "custom", field: "body", message: `body is too long (maximum is ${COMMENT_LIMIT} characters)` },
        ],
      });
    }
    const author = fake.commentAuthor ?? fake.viewer ?? "github-actions[bot]";
    if (repoRoute(fake.repo, req.method ?? "GET", new URL(`${url.pathname}${url.search}`, fake.url), body, res, send, author)) return;
    const list = LIST.exec(url.pathname);
    if (list && req.method === "GET") return listComments(res, url, Number(list[3]));
    if (list && req.method === "POST") {
      const comment = {
        id: nextId++,
        issue: Number(list[3]),
        body: String(body.body),
        login: fake.commentAuthor ?? fake.viewer ?? "github-actions[bot]",
      };
      fake.comments.push(comment);
      return send(res, 201, view(comment));
    }
    const one = ONE.exec(url.pathname);
    const index = one ? fake.comments.findIndex((c) => c.id === Number(one[3])) : -1;
    if (!one || index < 0) return send(res, 404, { message: "Not Found" });
    if (req.method === "PATCH") {
      fake.comments[index]!.body = String(body.body);
      return send(res, 200, view(fake.comments[index]!));
    }
    if (req.method === "DELETE") {
      fake.comments.splice(index, 1);
      return send(res, 204, undefined);
    }
    send(res, 404, { message: "Not Found" });
  };

  const listComments = (res: ServerResponse, url: URL, issue: number): void => {
    const perPage = Number(url.searchParams.get("per_page") ?? 30);
    const page = Number(url.searchParams.get("page") ?? 1);
    const all = fake.comments.filter((c) => c.issue === issue);
    const last = Math.max(1, Math.ceil(all.length / perPage));
    const headers: Record<string, string> = {};
    if (page < last) {
      const next = new URL(url);
      next.searchParams.set("page", String(page + 1));
      headers.link = `<${fake.url}${next.pathname}${next.search}>; rel="next", <${fake.url}${next.pathname}?per_page=${perPage}&page=${last}>; rel="last"`;
    }
    send(res, 200, all.slice((page - 1) * perPage, page * perPage).map(view), headers);
  };

  const server = createServer((req, res) => void handle(req, res).catch(() => send(res, 500, { message: "fake failed" })));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

function pullView(p: FakePull) {
  const merged = p.mergeCommitSha !== undefined && !p.closedUnmerged;
  return {
    number: p.number,
    state: merged || p.closedUnmerged ? "closed" : "open",
    merged_at: merged ? "2026-11-23T12:00:00Z" : null,
    merge_commit_sha: p.mergeCommitSha ?? null,
    head: { sha: p.headSha, ref: `feature-${p.number}` },
    base: { ref: "main" },
  };
}

function view(c: FakeComment) {
  return {
    id: c.id,
    body: c.body,
    user: { login: c.login, type: c.login.endsWith("[bot]") ? "Bot" : "User" },
    html_url: `https://github.example/acme/sites/pull/${c.issue}#issuecomment-${c.id}`,
  };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? "" : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(text);
}
