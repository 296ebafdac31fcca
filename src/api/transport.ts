/**
 * The transport under ofetch (DESIGN §10): Node's own http and https, with a keep-alive agent for each, given
 * to ofetch as its `fetch`. The WHATWG fetch that Node ships (undici) spent about 0.3 s more CPU on the 1,000
 * pages of a 100,000-website read (bench scenario 9), on web streams and header objects nothing here needs.
 *
 * What it keeps of fetch: a redirect is never followed (API-NOTES §4: it means a refused key or a dropped
 * Accept header, and following it would send the key elsewhere); the request stops at its deadline; the
 * answer is decompressed as it streams (gzip, deflate, br, asked for as fetch asks), so the cap in `send.ts`
 * counts decoded bytes; with NODE_USE_ENV_PROXY set, the proxy variables apply as they do to fetch. The body is
 * Node's stream, which `send` reads.
 */
import type * as Http from "node:http";
import { pipeline, type Readable, type Transform } from "node:stream";
import zlib from "node:zlib";
import type { HeaderReader } from "./rate-info.ts";

/**
 * The headers of requests and answers, for ofetch (its `Headers`) and the transport: a map by lowercased name.
 * With it nothing loads undici, whose WHATWG Headers and loading cost a plan more than this whole file. Names
 * and values are checked by Node's http, which refuses a line break in either.
 */
export class HeaderMap implements HeaderReader, Iterable<[string, string]> {
  readonly #map = new Map<string, string>();

  constructor(init?: Iterable<readonly [string, string]> | Record<string, string>) {
    if (init === undefined || init === null) return;
    const entries = Symbol.iterator in init ? (init as Iterable<readonly [string, string]>) : Object.entries(init);
    for (const [name, value] of entries) this.set(name, value);
  }

  get(name: string): string | null {
    return this.#map.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#map.has(name.toLowerCase());
  }

  set(name: string, value: string): void {
    this.#map.set(name.toLowerCase(), String(value));
  }

  /** A repeated header joined with `, `, as fetch joins it. */
  append(name: string, value: string): void {
    const held = this.get(name);
    this.set(name, held === null ? value : `${held}, ${value}`);
  }

  delete(name: string): void {
    this.#map.delete(name.toLowerCase());
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#map.entries();
  }
}

/** What ofetch reads of an answer, the body being Node's stream (ofetch's `responseType: "stream"`). */
export interface NodeAnswer {
  status: number;
  statusText: string;
  ok: boolean;
  headers: HeaderMap;
  /** `null` for an answer that has none (HEAD, 204, 304): ofetch then reads nothing. */
  body: Readable | null;
}

/**
 * `process.getBuiltinModule`, not `import`: an ES import of node:http reads each of its exports, and three of
 * them (WebSocket, CloseEvent, MessageEvent) load undici when read, ~45 ms of CPU in every command that sends
 * a request. https has no such exports.
 */
const http = process.getBuiltinModule("node:http");
const https = process.getBuiltinModule("node:https");

const proxyEnv = process.env.NODE_USE_ENV_PROXY ? process.env : undefined;
const AGENTS: Record<string, Http.Agent> = {
  "http:": new http.Agent({ keepAlive: true, proxyEnv }),
  "https:": new https.Agent({ keepAlive: true, proxyEnv }),
};

/** Lenient at the end of a stream, as fetch is: a body cut short reads as what arrived, then fails to parse. */
const SYNC = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(SYNC),
  "x-gzip": () => zlib.createGunzip(SYNC),
  deflate: () => zlib.createInflate(SYNC),
  br: () => zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH }),
};

/**
 * How long one attempt may take, answer and body, given to the transport in the fetch options (ofetch passes
 * them through); `expired` says afterwards whether it ran out. A timer and a flag, not `AbortSignal.timeout`:
 * a signal per request cost a 1,000-page read ~70 ms of CPU (an EventTarget, its listener, a weak timer).
 */
export interface Deadline {
  ms: number;
  expired: boolean;
}

/** The fetch options the transport reads: fetch's own, and the attempt's deadline. */
export type TransportInit = RequestInit & { deadline?: Deadline };

/** Statuses that carry no body (ofetch reads none for them either). */
const NO_BODY = new Set([101, 204, 205, 304]);

/** One request; resolves once the status and headers arrive, rejects when no answer comes. */
export function nodeFetch(input: string | URL | Request, init: TransportInit = {}): Promise<NodeAnswer> {
  const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
  const client = url.protocol === "https:" ? https : http;
  const method = init.method ?? "GET";
  const given = init.headers instanceof HeaderMap ? init.headers : new HeaderMap(init.headers as Record<string, string> | undefined);
  const headers = { "accept-encoding": "gzip, deflate, br", ...Object.fromEntries(given) };
  return new Promise((resolve, reject) => {
    const options = { agent: AGENTS[url.protocol], method, headers, signal: init.signal ?? undefined };
    const request = client.request(url, options, (response) => resolve(answerOf(response, method)));
    if (init.deadline) limit(request, init.deadline, reject);
    request.on("error", reject);
    request.end(typeof init.body === "string" ? init.body : undefined);
  });
}

/**
 * Ends the attempt at its deadline, whether the answer has not come or its body is still being read. The request
 * closes once its answer is read or it fails, which clears the timer; until then an unref'd timer keeps no
 * process alive.
 */
function limit(request: Http.ClientRequest, deadline: Deadline, reject: (error: Error) => void): void {
  let response: Http.IncomingMessage | undefined;
  request.once("response", (answer: Http.IncomingMessage) => {
    response = answer;
  });
  const timer = setTimeout(() => {
    deadline.expired = true;
    const error = new Error(`no answer within ${deadline.ms} ms`);
    // An answer under way fails itself. Destroying its request would drop what a decoder still holds and end
    // the body as if it were whole (a cut-short 200).
    if (response) response.destroy(error);
    else {
      request.destroy(error);
      // A request still waiting for an HTTPS proxy's tunnel says nothing when destroyed: fail it here.
      reject(error);
    }
  }, deadline.ms);
  timer.unref();
  request.once("close", () => clearTimeout(timer));
}

function answerOf(response: Http.IncomingMessage, method: string): NodeAnswer {
  const status = response.statusCode ?? 0;
  const headers = new HeaderMap();
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  const bodyless = method === "HEAD" || NO_BODY.has(status);
  // A body left unread would hold its socket: one that has none is drained at once.
  if (bodyless) response.resume();
  return {
    status,
    statusText: response.statusMessage ?? "",
    ok: status >= 200 && status < 300,
    headers,
    body: bodyless ? null : decoded(response),
  };
}

/** The body decoded as it streams; an unknown coding is passed through (the caller then cannot parse it). */
function decoded(response: Http.IncomingMessage): Readable {
  const coding = response.headers["content-encoding"]?.trim().toLowerCase();
  const decoder = coding === undefined ? undefined : DECODERS[coding]?.();
  if (decoder === undefined) return response;
  // Either side failing or stopping (the size cap destroys the decoder) ends both.
  return pipeline(response, decoder, () => {});
}
