// The library surface (DESIGN §1): every stage of the pipeline, usable on its own.
//   const config = await loadConfig("sitesync.yaml");      // Desired
//   const client = createClient({ websitesUrl, apiKey });
//   const live = await readLive(client, config);            // Live
//   const p = plan(config, live, { configFile, configDigest, rate: client.stats().rate });
//   console.log(render(p, "text")); await apply(p, client, { passwordOf });

export { createClient } from "./api/client.ts";
export { type Lookup, lookUpProjects, lookUpWebsites } from "./api/lookup.ts";
export type * from "./api/types.ts";
export { apply } from "./apply/apply.ts";
export type * from "./apply/types.ts";
export * from "./change/index.ts";
export { type ExportInput, type ExportOptions, type ExportResult, exportConfig } from "./config/export-config.ts";
export type { LeftOut } from "./config/export-fit.ts";
export * from "./config/index.ts";
export * from "./errors.ts";
export type * from "./model/config-change.ts";
export { matchGlob } from "./model/glob.ts";
export { DEFAULT_POLICY, type Policy } from "./model/policy.ts";
export type * from "./model/project.ts";
export type * from "./model/state.ts";
export type * from "./model/website.ts";
export { normalizeDomain } from "./model/website.ts";
export type * from "./model/website-fields.ts";
export { PRIVACY_NAMES, WEBSITE_FIELDS } from "./model/website-fields.ts";
export * from "./plan/index.ts";
export type * from "./plan/types.ts";
export { type RenderFormat, type RenderOptions, render } from "./render/index.ts";
export { ExitCode, exitCodeOf } from "./run/exit-code.ts";
export { readSavedPlan } from "./run/plan-file.ts";
export { readLive } from "./run/read-live.ts";
export type { Sandbox, SandboxOptions } from "./sandbox/index.ts";
export { startSandbox } from "./sandbox/index.ts";
