/**
 * The package ships ofetch's `createFetch` and `FetchError` bundled from ofetch's own code without the default
 * instance its entry builds from Node's globals (scripts/ofetch-core.ts); a checkout imports them from the entry
 * (src/api/ofetch-core.ts). The bundle must be ofetch, answering as the entry's does through sitesync's
 * transport; it must import nothing (so no node-fetch-native) and load no undici: that is what it is for. Nor
 * may the rest of a request's path load undici (src/api/transport.ts). Which of Node's own modules were loaded
 * is seen in a fresh Node, whose `process.moduleLoadList` tells.
 */
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ofetchCore } from "../../scripts/ofetch-core.ts";
import * as entry from "../../src/api/ofetch-core.ts";
import { HeaderMap, nodeFetch } from "../../src/api/transport.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let dir: string;
let file: string;
let bundled: typeof entry;
let server: Server;
let base: string;

beforeAll(async () => {
  mkdirSync(join(ROOT, "node_modules", ".cache"), { recursive: true });
  dir = mkdtempSync(join(ROOT, "node_modules", ".cache", "sitesync-ofetch-core-"));
  file = join(dir, "ofetch-core.js");
  writeFileSync(file, ofetchCore());
  bundled = (await import(pathToFileURL(file).href)) as typeof entry;
  server = createServer((req, res) => {
    if (req.url === "/missing") res.writeHead(404, { "Content-Type": "application/json" }).end('{"message":"Resource not found."}');
    else res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ data: { id: 1, asked: req.headers.accept } }));
  }).listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What one GET through sitesync's transport gives with `createFetch` from `from`: status and body, or the error. */
async function get(from: typeof entry, path: string): Promise<unknown> {
  const $fetch = from.createFetch({
    fetch: nodeFetch as unknown as typeof fetch,
    Headers: HeaderMap as unknown as typeof Headers,
    // As src/api/send.ts asks, but an error status is thrown, so that FetchError is made.
    defaults: { retry: false, redirect: "manual", responseType: "stream" },
  });
  try {
    const response = await $fetch.raw<Readable>(`${base}${path}`, { headers: { Accept: "application/json" } });
    return { status: response.status, text: await text(response._data) };
  } catch (error) {
    const { status, response } = error as { status?: number; response?: { _data?: Readable } };
    response?._data?.resume();
    return { error: error instanceof from.FetchError ? "FetchError" : String(error), status };
  }
}

async function text(body: Readable | undefined): Promise<string> {
  let read = "";
  for await (const chunk of body ?? []) read += String(chunk);
  return read;
}

function undici(modules: string[]): boolean {
  return modules.some((name) => name.includes("undici"));
}

/** Node's own modules that a fresh Node loaded to import `specifier`. */
function loadedBy(specifier: string): string[] {
  const script = `await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(process.moduleLoadList));`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
  expect(child.stderr).toBe("");
  return JSON.parse(child.stdout) as string[];
}

describe("ofetch's createFetch and FetchError as the package ships them", () => {
  it("import nothing, and answer through the transport as the entry's do, an error included", async () => {
    expect(ofetchCore()).not.toMatch(/^\s*import\b|\bfrom\s*["']/m);
    for (const path of ["/api/v1/websites/1", "/missing"]) expect(await get(bundled, path)).toEqual(await get(entry, path));
    expect(await get(bundled, "/api/v1/websites/1")).toEqual({ status: 200, text: '{"data":{"id":1,"asked":"application/json"}}' });
    expect(await get(bundled, "/missing")).toEqual({ error: "FetchError", status: 404 });
  });

  it("load no undici, which ofetch's entry loads", () => {
    expect(undici(loadedBy(pathToFileURL(file).href))).toBe(false);
    expect(undici(loadedBy("ofetch"))).toBe(true);
  });
});

describe("the rest of a request's path", () => {
  it("loads no undici: node:http is not imported as an ES module, which reads its WebSocket export", () => {
    for (const module of ["src/api/transport.ts", "src/api/response-body.ts"]) {
      expect(undici(loadedBy(pathToFileURL(join(ROOT, module)).href)), module).toBe(false);
    }
    expect(undici(loadedBy("node:http"))).toBe(true);
  });
});
