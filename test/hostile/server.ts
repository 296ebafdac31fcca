/**
 * A hostile API for the bounds of DESIGN §12: a plain node:http server on 127.0.0.1, port 0, whose first path
 * segment picks the misbehaviour. Point a client at `${url}/<scenario>`: it then requests
 * `/<scenario>/api/v1/websites...`. Every request is recorded with its raw path.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createGzip } from "node:zlib";
import { apiWebsite } from "../helpers/api-website.ts";

export type Scenario =
  /** meta claims a trillion websites. */
  | "absurd-total"
  /** meta.last_page does not follow from total ÷ per_page. */
  | "lying-last-page"
  /** 100,000 items claimed at per_page 1, so 100,000 pages. */
  | "tiny-pages"
  /** No meta; links.next leads on forever, over empty pages. */
  | "endless-next"
  /** meta says one page, but that page still links on. */
  | "last-page-links-on"
  /** An endless gzip stream of zeros: a decompression bomb. */
  | "gzip-bomb"
  /** An endless uncompressed body. */
  | "endless-body"
  /** A Content-Length of 1 GB. */
  | "huge-length"
  /** A 429 asking for a day, in seconds. */
  | "retry-after-day"
  /** A 429 asking for a day, as an HTTP date. */
  | "retry-after-date"
  /** A 429 with only X-RateLimit-Reset, a day ahead. */
  | "reset-day"
  /** A 503 asking for a day. */
  | "unavailable-day"
  /** A 429 with a negative Retry-After, then the listing. */
  | "retry-after-negative"
  /** A 429 asking for one second, then the listing: a wait within --max-wait, which the run reports. */
  | "retry-after-second"
  /** A website with a negative id. */
  | "negative-id"
  /** A search that never finds the domain, with a thousand pages of near misses. */
  | "endless-search"
  /** A well-behaved listing of one website and the projects `..`, `a/b` etc., recording DELETEs. */
  | "plain";

interface HostileRequest {
  method: string;
  /** The raw request target, as sent (percent-encoding kept). */
  path: string;
}

export interface HostileServer {
  url: string;
  requests: HostileRequest[];
  /** Bytes written of the bomb or the endless body so far (uncompressed). */
  streamed(): number;
  close(): Promise<void>;
}

const DAY_S = 86_400;

function website(id: number, domain = `site${id}.example`): Record<string, unknown> {
  return apiWebsite(id, { domain });
}

function meta(page: number, total: number, perPage: number, lastPage = Math.max(1, Math.ceil(total / perPage))) {
  return { current_page: page, from: null, last_page: lastPage, path: "", per_page: perPage, to: null, total };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Writes 1 MiB chunks into `sink` until the client goes away, waiting on `sink`'s backpressure. */
function endless(res: ServerResponse, sink: NodeJS.WritableStream, onChunk: () => void): void {
  const chunk = Buffer.alloc(1 << 20, 0x20);
  let open = true;
  res.on("close", () => (open = false));
  const pump = (): void => {
    while (open) {
      onChunk();
      if (!sink.write(chunk)) return void sink.once("drain", pump);
    }
  };
  pump();
}

export async function startHostileServer(): Promise<HostileServer> {
  const requests: HostileRequest[] = [];
  let streamed = 0;
  let throttled = 0;

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const path = req.url ?? "/";
    requests.push({ method: req.method ?? "GET", path });
    const url = new URL(path, "http://hostile.test");
    const [, scenario, ...rest] = url.pathname.split("/") as [string, Scenario, ...string[]];
    const endpoint = rest.join("/");
    const page = Number(url.searchParams.get("page") ?? 1);
    const next = `http://hostile.test${url.pathname}?page=${page + 1}`;

    switch (scenario) {
      case "absurd-total": {
        json(res, 200, { data: [website(1)], meta: meta(page, 1e12, 100) });
        return;
      }
      case "lying-last-page": {
        json(res, 200, { data: [website(1)], meta: meta(page, 1, 100, 1_000_000_000) });
        return;
      }
      case "tiny-pages": {
        json(res, 200, { data: [website(page)], meta: meta(page, 100_000, 1) });
        return;
      }
      case "endless-next": {
        json(res, 200, { data: [], links: { next } });
        return;
      }
      case "last-page-links-on": {
        json(res, 200, { data: [website(1)], links: { next }, meta: meta(page, 1, 100) });
        return;
      }
      case "gzip-bomb": {
        res.writeHead(200, { "Content-Type": "application/json", "Content-Encoding": "gzip" });
        const gzip = createGzip();
        gzip.pipe(res);
        res.on("close", () => gzip.destroy());
        endless(res, gzip, () => (streamed += 1 << 20));
        return;
      }
      case "endless-body":
        res.writeHead(200, { "Content-Type": "application/json" });
        res.write('{"data":[');
        {
          endless(res, res, () => (streamed += 1 << 20));
          return;
        }
      case "huge-length":
        res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(1e9) });
        res.write('{"data":[');
        return;
      case "retry-after-day": {
        json(
          res,
          429,
          { message: "Too Many Attempts." },
          { "Retry-After": String(DAY_S), "X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0" },
        );
        return;
      }
      case "retry-after-date": {
        json(res, 429, { message: "Too Many Attempts." }, { "Retry-After": new Date(Date.now() + DAY_S * 1000).toUTCString() });
        return;
      }
      case "reset-day": {
        json(res, 429, { message: "Too Many Attempts." }, { "X-RateLimit-Reset": String(Math.floor(Date.now() / 1000) + DAY_S) });
        return;
      }
      case "unavailable-day": {
        json(res, 503, { message: "Service Unavailable" }, { "Retry-After": String(DAY_S) });
        return;
      }
      case "retry-after-negative":
        if (throttled++ === 0) {
          json(res, 429, { message: "Too Many Attempts." }, { "Retry-After": "-5" });
          return;
        }
        {
          json(res, 200, { data: [website(1)], meta: meta(page, 1, 100) });
          return;
        }
      case "retry-after-second":
        if (throttled++ === 0) {
          json(res, 429, { message: "Too Many Attempts." }, { "Retry-After": "1" });
          return;
        }
        {
          json(res, 200, { data: [website(1)], meta: meta(page, 1, 100) });
          return;
        }
      case "negative-id": {
        json(res, 200, { data: [website(-1)], meta: meta(page, 1, 100) });
        return;
      }
      case "endless-search": {
        const data = Array.from({ length: 100 }, (_, i) => website(page * 100 + i, `x${page * 100 + i}.${url.searchParams.get("search")}`));
        json(res, 200, { data, meta: meta(page, 100_000, 100) });
        return;
      }
      case "plain":
        if (req.method === "DELETE") {
          const name = decodeURIComponent(endpoint.slice("api/v1/projects/".length));
          json(res, 200, { id: name, object: "report", deleted: true, status: 200 });
          return;
        }
        {
          json(res, 200, { data: [website(1)], meta: meta(page, 1, 100) });
          return;
        }
      default: {
        json(res, 404, { message: "Resource not found.", status: 404 });
        return;
      }
    }
  };

  const server = createServer((req, res) => {
    // Read (and drop) any request body first, as a real server would.
    req.resume();
    req.on("end", () => handle(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    streamed: () => streamed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
