/**
 * A hostile API that repeats what it is sent (DESIGN §12): a plain node:http server on 127.0.0.1,
 * port 0, that lists the websites it was started with and answers every write with an echo of a secret:
 *
 * - PUT  quotes the password it received in a 422 (`The password «…» is too weak.`), in both bag shapes;
 * - POST answers 200 with the key it received as the new website's id (a decode error quoting the key);
 * - DELETE answers 422 with the key in its message and a terminal escape with a forged line in a field's.
 *
 * A search (the lookup after an ambiguous POST) finds nothing.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { apiWebsite } from "../helpers/api-website.ts";

export interface EchoServer {
  url: string;
  close(): Promise<void>;
}

/** What a forged line looks like: it must never start a line of any output. */
export const FORGED = "no changes to important.example.com";
/** Erases the line, moves up, and starts a new line that forges a plan's verdict. */
export const INJECTION = `\u001b[2K\u001b[1A\n${FORGED}`;

export function echoWebsite(id: number, domain: string): Record<string, unknown> {
  return apiWebsite(id, { domain });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

export async function startEchoServer(websites: Record<string, unknown>[]): Promise<EchoServer> {
  const handle = (req: IncomingMessage, body: string, res: ServerResponse): void => {
    const url = new URL(req.url ?? "/", "http://echo.test");
    const key = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    const form = new URLSearchParams(body);
    switch (req.method) {
      case "GET": {
        const data = url.searchParams.has("search") ? [] : websites;
        const meta = { current_page: 1, from: null, last_page: 1, path: "", per_page: 100, to: null, total: data.length };
        json(res, 200, { data, meta });
        return;
      }
      case "PUT": {
        const password = form.get("password") ?? "";
        const bag = { password: [`The password «${password}» is too weak.`] };
        json(res, 422, { message: `The password «${password}» is too weak.`, errors: bag });
        return;
      }
      case "POST": {
        json(res, 200, { data: { ...echoWebsite(0, form.get("domain") ?? ""), id: key } });
        return;
      }
      case "DELETE": {
        json(res, 422, {
          message: { id: [`Cannot delete while the key ${key} is in use.`], reason: [`locked${INJECTION}`] },
        });
        return;
      }
      default: {
        json(res, 405, { message: "Method not allowed." });
        return;
      }
    }
  };
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => handle(req, body, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
