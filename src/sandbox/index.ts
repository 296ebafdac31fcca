// The sandbox (DESIGN §7): a local imitation of the phpAnalytics Websites and phpRank Projects APIs.
export { startSandbox } from "./server.ts";
export { SandboxStore, type StoreSnapshot, type WebsitePatch, type ProjectOrder } from "./store.ts";
export type * from "./types.ts";
