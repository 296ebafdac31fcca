/**
 * A sandbox in its own process, driven over IPC by sandbox-process.ts. The timed scenarios use it so that
 * the server's work (serializing pages, throttling) does not share an event loop with the client being
 * measured, as it would not against the real API.
 */
import { type SandboxOptions, startSandbox } from "../src/index.ts";

export type Query = "websites" | "projects" | "requests" | "close";

const options = JSON.parse(process.argv[2] ?? "{}") as SandboxOptions;
const sandbox = await startSandbox(options);

process.on("message", async (message: { id: number; query: Query }) => {
  const answer = (result: unknown) => process.send?.({ id: message.id, result });
  switch (message.query) {
    case "websites":
      return answer(sandbox.store.websites().map(({ domain, email }) => ({ domain, email })));
    case "projects":
      return answer(sandbox.store.projects().map((p) => p.project));
    case "requests":
      return answer(sandbox.requests);
    case "close":
      await sandbox.close();
      answer(null);
      process.disconnect();
  }
});
// The bench ended (or crashed) without closing: do not outlive it.
process.on("disconnect", () => process.exit(0));
process.send?.({ id: 0, result: { url: sandbox.url, apiKey: sandbox.apiKey } });
