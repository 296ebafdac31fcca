/**
 * An HTTPS request through a proxy (NODE_USE_ENV_PROXY) that takes the connection and never answers its CONNECT
 * still ends at the attempt's deadline: Node's https gives such a request no socket to destroy, so the transport
 * fails it itself (src/api/transport.ts reads the proxy variables when it loads, so they are set first).
 */
import { once } from "node:events";
import { createServer, type Socket } from "node:net";
import { afterAll, expect, it } from "vitest";

const held: Socket[] = [];
const proxy = createServer((socket) => {
  held.push(socket);
  socket.on("data", () => {});
});
afterAll(() => {
  for (const socket of held) socket.destroy();
  proxy.close();
});

it("ends an HTTPS attempt at its deadline when the proxy never opens the tunnel", async () => {
  proxy.listen(0, "127.0.0.1");
  await once(proxy, "listening");
  const port = (proxy.address() as { port: number }).port;
  process.env.HTTPS_PROXY = `http://127.0.0.1:${port}`;
  process.env.NODE_USE_ENV_PROXY = "1";
  const { send } = await import("../../src/api/send.ts");
  const { systemClock } = await import("../../src/api/clock.ts");
  // TEST-NET-1: never reached directly; only the proxy could.
  const url = "https://192.0.2.10:9/api/v1/websites?page=1";
  const attempt = await send({ method: "GET", url, apiKey: "k" }, { timeoutMs: 300, maxBodyBytes: 2 ** 20, clock: systemClock });
  expect(attempt).toMatchObject({ kind: "failure", reason: "timeout", detail: "no answer within 300 ms" });
  expect(held.length).toBe(1);
});
