export { loadConfig, type LoadOptions } from "./load.ts";
export { matchGlob } from "./glob.ts";
export { configSchema } from "./schema.ts";
export { DEFAULT_POLICY, type Config, type LoadResult, type Policy } from "./types.ts";
