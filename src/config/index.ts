export type { FolderEntry, ListFolder } from "./include.ts";
export { type LoadOptions, loadConfig } from "./load.ts";
export { configSchema } from "./schema.ts";
export type { Config, LoadResult } from "./types.ts";
