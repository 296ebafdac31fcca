/** The sandbox's HTTP server: node:http on 127.0.0.1, latency, fault timing, the request log. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { FaultInjector } from "./_faults.ts";
import { BodyTooLargeError, expectsJson, readBody } from "./_input.ts";
import { loadSnapshot, saveSnapshot } from "./_persist.ts";
import { type Decision, type PipelineState, processRequest } from "./_pipeline.ts";
import { type Reply, tooLarge } from "./_reply.ts";
import { randomKey, seedProjects, seedWebsites } from "./_seed.ts";
import { Throttle } from "./_throttle.ts";
import { SandboxStore } from "./store.ts";
import type { FaultOptions, SandboxOptions, SandboxRequest, SandboxStats } from "./types.ts";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const LIST_PATH = /^\/api\/v1\/(websites|projects)\/?$/;

/**
 * Starts a local server imitating the phpAnalytics Websites API and the phpRank Projects API, as
 * API-NOTES describes them. Resolves once it listens; `close()` stops it and drops open connections.
 */
/** A running sandbox: its address and keys, its account, and what it was asked. */
export interface Sandbox {
  /** Base URL without `/api/v1`, e.g. `http://127.0.0.1:43123`. */
  url: string;
  apiKey: string;
  projectsApiKey: string;
  /** Direct access for tests: change the account without HTTP. */
  store: SandboxStore;
  /** Every request received, in arrival order. */
  requests: SandboxRequest[];
  stats(): SandboxStats;
  resetLog(): void;
  setFaults(faults: FaultOptions | undefined): void;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const state = createState(options);
  const requests: SandboxRequest[] = [];
  const timers = new Timers();
  const server = createServer();
  const address = { url: "" };
  const handle = requestHandler({ state, options, requests, timers, address });
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => {
      if (res.headersSent) res.destroy();
      else send(res, { status: 500, headers: { "Content-Type": "application/json" }, body: '{"message":"Server Error"}' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  address.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: address.url,
    apiKey: state.apiKey,
    projectsApiKey: state.projectsApiKey,
    store: state.store,
    requests,
    stats: () => statsOf(requests),
    resetLog: () => void requests.splice(0),
    setFaults: (faults) => {
      state.faults = new FaultInjector(faults);
    },
    close: () =>
      new Promise<void>((resolve) => {
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function createState(options: SandboxOptions): PipelineState {
  const apiKey = options.apiKey ?? randomKey();
  const rateLimit = options.rateLimit ?? 60;
  return {
    store: createStore(options),
    settings: {
      defaultPerPage: options.defaultPerPage ?? 10,
      websiteLimit: options.websiteLimit ?? -1,
      putMissing: options.putMissing ?? 500,
      dropLastExcludedIp: options.dropLastExcludedIp ?? false,
    },
    throttle: rateLimit > 0 ? new Throttle(rateLimit, options.rateWindowMs ?? 60_000) : undefined,
    faults: new FaultInjector(options.faults),
    apiKey,
    projectsApiKey: options.projectsApiKey ?? apiKey,
    apiFeature: options.apiFeature ?? true,
  };
}

interface HandlerDeps {
  state: PipelineState;
  options: SandboxOptions;
  requests: SandboxRequest[];
  timers: Timers;
  /** Filled in once the server listens; the fallback when a request has no Host header. */
  address: { url: string };
}

/** Reads the body, waits the latency, runs the pipeline, records the request, then answers or hangs up. */
function requestHandler({ state, options, requests, timers, address }: HandlerDeps) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const ts = Date.now();
    const [rawPath, rawQuery] = splitTarget(req.url ?? "/");
    let body: Buffer;
    try {
      body = await readBody(req);
    } catch (error) {
      if (error instanceof BodyTooLargeError) send(res, tooLarge(expectsJson(req.headers.accept, undefined)));
      else req.socket.destroy();
      return;
    }
    await timers.wait(options.latencyMs ?? 0);
    await options.beforeAnswer?.({ method: req.method ?? "GET", path: rawPath });
    const baseUrl = req.headers.host ? `http://${req.headers.host}` : address.url;
    const decision = processRequest(state, {
      method: req.method ?? "GET",
      rawPath,
      rawQuery,
      headers: req.headers,
      body,
      baseUrl,
      now: new Date(options.clock?.now() ?? Date.now()),
    });
    if (decision.slowMs) await timers.wait(decision.slowMs);
    const reply = decision.drop ? undefined : decision.reply;
    const entry = record(decision, rawPath, rawQuery, ts, reply?.status ?? 0);
    const form = bodyFields(req.headers["content-type"], body);
    if (form) entry.form = form;
    requests.push(entry);
    options.log?.(logLine(entry));
    if (reply) send(res, reply);
    else req.socket.destroy();
  };
}

/** Pending delays, cleared on close so that a stopped sandbox leaves no timer behind. */
class Timers {
  #pending = new Set<NodeJS.Timeout>();

  wait(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(timer);
        resolve();
      }, ms);
      this.#pending.add(timer);
    });
  }

  clear(): void {
    for (const timer of this.#pending) clearTimeout(timer);
    this.#pending.clear();
  }
}

/** The persisted state when there is one, else the seeded and explicit data. */
function createStore(options: SandboxOptions): SandboxStore {
  const store = new SandboxStore();
  const snapshot = options.persist ? loadSnapshot(options.persist) : undefined;
  if (snapshot) {
    store.restore(snapshot);
  } else {
    for (const website of [...seedWebsites(options.seed ?? 0), ...(options.websites ?? [])]) store.addWebsite(website);
    for (const project of [...seedProjects(options.seedProjects ?? 0), ...(options.projects ?? [])]) store.addProject(project);
  }
  for (const domain of options.otherUsersDomains ?? []) store.addOtherUserDomain(domain);
  const file = options.persist;
  if (file) {
    store.onChange = () => saveSnapshot(file, store.snapshot());
    saveSnapshot(file, store.snapshot());
  }
  return store;
}

/** Path and query of a request target; an absolute-form target loses its origin. */
function splitTarget(target: string): [string, string] {
  const path = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i, "");
  const question = path.indexOf("?");
  return question < 0 ? [path || "/", ""] : [path.slice(0, question) || "/", path.slice(question + 1)];
}

function send(res: ServerResponse, reply: Reply): void {
  res.writeHead(reply.status, {
    "Cache-Control": "no-cache, private",
    ...reply.headers,
    "Content-Length": Buffer.byteLength(reply.body),
  });
  res.end(reply.body);
}

function record(decision: Decision, path: string, rawQuery: string, ts: number, status: number): SandboxRequest {
  const query: Record<string, string> = {};
  // The key never reaches the log or the request list.
  for (const [key, value] of new URLSearchParams(rawQuery)) if (key !== "api_token") query[key] = value;
  const entry: SandboxRequest = { method: decision.method, path, query, status, ts, durationMs: Date.now() - ts };
  if (decision.fault) entry.fault = decision.fault;
  return entry;
}

/** A form or JSON body's fields as sent, for the request list: the key left out, a password's value hidden. */
function bodyFields(contentType: string | undefined, body: Buffer): Record<string, string> | undefined {
  if (body.length === 0) return undefined;
  let pairs: [string, unknown][];
  try {
    pairs = contentType?.includes("json")
      ? Object.entries(JSON.parse(body.toString("utf8")) as object)
      : [...new URLSearchParams(body.toString("utf8"))];
  } catch {
    return undefined;
  }
  const fields: Record<string, string> = {};
  for (const [key, value] of pairs) {
    if (key !== "api_token") fields[key] = key === "password" && value ? "(sensitive)" : String(value ?? "");
  }
  return fields;
}

function logLine(entry: SandboxRequest): string {
  const query = new URLSearchParams(entry.query).toString();
  const fault = entry.fault ? ` [${entry.fault}]` : "";
  return `${entry.method} ${entry.path}${query ? `?${query}` : ""} ${entry.status || "reset"} ${entry.durationMs}ms${fault}`;
}

function statsOf(requests: readonly SandboxRequest[]): SandboxStats {
  const stats: SandboxStats = { byMethod: {}, throttled: 0, listRequests: 0, writeRequests: 0 };
  for (const request of requests) {
    stats.byMethod[request.method] = (stats.byMethod[request.method] ?? 0) + 1;
    if (request.status === 429) stats.throttled++;
    if (request.method === "GET" && LIST_PATH.test(request.path)) stats.listRequests++;
    if (WRITES.has(request.method)) stats.writeRequests++;
  }
  return stats;
}
