/**
 * The transport under ofetch (src/api/transport.ts) against a real server on 127.0.0.1: what fetch did for
 * sitesync, it still does — decoded bodies of each coding fetch asks for, a byte order mark dropped, no
 * redirect followed, bodiless answers that do not hold their connection.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../src/api/clock.ts";
import { send } from "../../src/api/send.ts";

const BODY = JSON.stringify({ data: { id: 1, domain: "ü.example.com" } });
const ENCODE: Record<string, (body: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
const seen: { url: string; acceptEncoding: string | undefined; socket: number }[] = [];
const sockets = new WeakMap<object, number>();
let socketCount = 0;
let server: Server;
let base: string;

function answer(req: IncomingMessage, res: ServerResponse): void {
  if (!sockets.has(req.socket)) sockets.set(req.socket, ++socketCount);
  seen.push({ url: req.url ?? "", acceptEncoding: req.headers["accept-encoding"], socket: sockets.get(req.socket) ?? 0 });
  const coding = new URL(req.url ?? "", "http://x").searchParams.get("coding") ?? "";
  if (req.url?.startsWith("/stall-body")) res.writeHead(200, { "Content-Type": "application/json" }).write(BODY.slice(0, 10));
  else if (req.url?.startsWith("/stall")) return;
  else if (req.url?.startsWith("/redirect")) res.writeHead(302, { Location: "/login" }).end("<html>login</html>");
  else if (req.url?.startsWith("/empty")) res.writeHead(204).end();
  else if (coding === "bom") res.writeHead(200, { "Content-Type": "application/json" }).end(`\uFEFF${BODY}`);
  else if (ENCODE[coding]) res.writeHead(200, { "Content-Encoding": coding }).end(ENCODE[coding](Buffer.from(BODY)));
  else res.writeHead(200, { "Content-Type": "application/json" }).end(BODY);
}

beforeAll(async () => {
  server = createServer(answer).listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const limits = { timeoutMs: 5_000, maxBodyBytes: 2 ** 20, clock: systemClock };
const get = (path: string) => send({ method: "GET", url: `${base}${path}`, apiKey: "k" }, limits);

describe("the transport", () => {
  it.each(["gzip", "deflate", "br", "bom", "identity"])("reads a %s answer as the JSON text it stands for", async (coding) => {
    const attempt = await get(`/api/v1/websites/1?coding=${coding}`);
    expect(attempt).toMatchObject({ kind: "response", status: 200, text: BODY });
    expect(seen.at(-1)?.acceptEncoding).toBe("gzip, deflate, br");
  });

  it("answers a redirect as itself, never following it with the key", async () => {
    const before = seen.length;
    const attempt = await get("/redirect");
    expect(attempt).toMatchObject({ kind: "response", status: 302 });
    expect(seen.slice(before).map((s) => s.url)).toEqual(["/redirect"]);
  });

  it("drains a bodiless answer, so its connection serves the next request", async () => {
    const empty = await get("/empty");
    expect(empty).toMatchObject({ kind: "response", status: 204, text: "" });
    await get("/api/v1/websites/1");
    const [first, second] = seen.slice(-2);
    expect(second?.socket).toBe(first?.socket);
  });

  it.each([
    ["no answer comes", "/stall"],
    ["the body stops arriving", "/stall-body"],
  ])("ends an attempt at its deadline when %s, and says so", async (_name, path) => {
    const started = performance.now();
    const attempt = await send({ method: "GET", url: `${base}${path}`, apiKey: "k" }, { ...limits, timeoutMs: 200 });
    expect(attempt).toMatchObject({ kind: "failure", reason: "timeout", detail: "no answer within 200 ms", neverSent: false });
    expect(performance.now() - started).toBeLessThan(4_000);
  });
});
