/** Starts bench/sandbox-child.ts and talks to it: the sandbox's address, store and request log over IPC. */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { SandboxOptions, SandboxRequest } from "../src/sandbox/index.ts";
import type { Query } from "./sandbox-child.ts";

const CHILD = fileURLToPath(new URL("./sandbox-child.ts", import.meta.url));

export interface SandboxProcess {
  url: string;
  apiKey: string;
  websites(): Promise<{ domain: string; email: number | null }[]>;
  projects(): Promise<string[]>;
  requests(): Promise<SandboxRequest[]>;
  close(): Promise<void>;
}

export async function startSandboxProcess(options: SandboxOptions): Promise<SandboxProcess> {
  const child = fork(CHILD, [JSON.stringify(options)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const pending = new Map<number, (result: unknown) => void>();
  child.on("message", (message: { id: number; result: unknown }) => {
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  });
  let nextId = 1;
  const ask = <T>(query: Query): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, (result) => resolve(result as T));
      if (!child.send({ id, query })) reject(new Error("the sandbox process is gone"));
    });
  const started = await new Promise<{ url: string; apiKey: string }>((resolve, reject) => {
    pending.set(0, (result) => resolve(result as { url: string; apiKey: string }));
    child.once("exit", (code) => reject(new Error(`the sandbox process exited with ${code} before it listened`)));
  });
  return {
    ...started,
    websites: () => ask("websites"),
    projects: () => ask("projects"),
    requests: () => ask("requests"),
    close: async () => {
      await ask("close");
      if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}
