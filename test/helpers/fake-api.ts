/**
 * A tiny real HTTP server on 127.0.0.1 (port 0) for end-to-end runs that need one exact answer the sandbox
 * does not give: a delete refused with 409 or 422, a 422 that repeats what was submitted. Listings are
 * served as the API pages them (API-NOTES §3); everything else goes to `answer`.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { pageBody } from "../api/helpers.ts";

interface FakeRequest {
  method: string;
  path: string;
  /** The form body, decoded. */
  form: URLSearchParams;
}

export interface FakeApi {
  url: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

export interface FakeApiOptions {
  websites?: Record<string, unknown>[];
  projects?: Record<string, unknown>[];
  /** The answer to any request that is not a listing. */
  answer(request: FakeRequest): { status: number; body: unknown };
}

export async function startFakeApi(options: FakeApiOptions): Promise<FakeApi> {
  const requests: FakeRequest[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((text) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const request = { method: req.method ?? "GET", path: url.pathname, form: new URLSearchParams(text) };
      requests.push(request);
      const listing =
        request.method === "GET" && { "/api/v1/websites": options.websites, "/api/v1/projects": options.projects }[url.pathname];
      const { status, body } = listing
        ? { status: 200, body: pageBody(`http://127.0.0.1${url.pathname}`, listing, Number(url.searchParams.get("page") ?? 1), 100) }
        : options.answer(request);
      res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return text;
}
