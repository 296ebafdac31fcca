/**
 * With NODE_USE_ENV_PROXY set, the proxy variables apply to sitesync's requests as they do to Node's fetch
 * (src/api/transport.ts reads them when it loads, so this file sets them before it imports it).
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, expect, it } from "vitest";

const asked: string[] = [];
const proxy = createServer((req, res) => {
  asked.push(req.url ?? "");
  res.writeHead(200, { "Content-Type": "application/json" }).end('{"data":[]}');
});
afterAll(() => proxy.close());

it("sends every request through HTTP_PROXY when NODE_USE_ENV_PROXY is set", async () => {
  proxy.listen(0, "127.0.0.1");
  await once(proxy, "listening");
  process.env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  process.env.NODE_USE_ENV_PROXY = "1";
  const { send } = await import("../../src/api/send.ts");
  const { systemClock } = await import("../../src/api/clock.ts");
  // TEST-NET-1: never reached directly; only the proxy can answer.
  const url = "http://192.0.2.10:9/api/v1/websites?page=1";
  const attempt = await send({ method: "GET", url, apiKey: "k" }, { timeoutMs: 5_000, maxBodyBytes: 2 ** 20, clock: systemClock });
  expect(attempt).toMatchObject({ kind: "response", status: 200, text: '{"data":[]}' });
  expect(asked).toEqual([url]);
});
