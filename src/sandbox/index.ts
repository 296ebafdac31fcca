// The sandbox (DESIGN §7): a local imitation of the phpAnalytics Websites and phpRank Projects APIs.
export { type Sandbox, startSandbox } from "./server.ts";
export { SandboxStore } from "./store.ts";
export type * from "./types.ts";
