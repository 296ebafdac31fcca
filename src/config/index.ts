export { type LoadOptions, loadConfig } from "./load.ts";
export { configSchema } from "./schema.ts";
export type { ConfigSource, FolderEntry } from "./source.ts";
export type { Config, LoadResult } from "./types.ts";
