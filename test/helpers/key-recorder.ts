/**
 * What key each server saw: a sandbox behind a pass-through on 127.0.0.1 (port 0) that notes the key every
 * request carried (API-NOTES §1: `Authorization: Bearer`, else `?api_token=`), then forwards the request
 * unchanged, Host header included, so the sandbox's page links still point back through it. The sandbox's
 * own request log never holds a key; a test of which account sent which key to which server reads this one.
 */
import { createServer, request as forward, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.ts";

export interface KeyedSandbox {
  sandbox: Sandbox;
  /** The address to give the config: the pass-through's, not the sandbox's. */
  url: string;
  /** Every request as it arrived: its API (`websites` or `projects`) and the key it carried ("" for none). */
  seen: { api: string; key: string }[];
  /** The distinct keys this server was sent, for one API or for both, sorted. */
  keys(api?: "websites" | "projects"): string[];
  close(): Promise<void>;
}

/** Starts a sandbox with `options` and the pass-through in front of it. */
export async function startKeyedSandbox(options: SandboxOptions): Promise<KeyedSandbox> {
  const sandbox = await startSandbox(options);
  const to = new URL(sandbox.url);
  const seen: KeyedSandbox["seen"] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://recorder");
    const bearer = /^Bearer (.*)$/.exec(req.headers.authorization ?? "")?.[1];
    seen.push({ api: /^\/api\/v1\/([a-z]+)/.exec(url.pathname)?.[1] ?? "", key: bearer ?? url.searchParams.get("api_token") ?? "" });
    const out = forward({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    sandbox,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    keys: (api) => [...new Set(seen.filter((s) => api === undefined || s.api === api).map((s) => s.key))].sort(),
    close: async () => {
      await stop(server);
      await sandbox.close();
    },
  };
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
