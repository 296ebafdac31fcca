// The library surface (DESIGN §1): every stage of the pipeline, usable on its own.
//   const config = loadConfig("sitesync.yaml");            // Desired
//   const client = createClient({ websitesUrl, apiKey });
//   const live = await readLive(client, config);            // Live
//   const p = plan(config, live, { configFile, configDigest });
//   console.log(render(p, "text")); await apply(p, client, { passwordOf });
export * from "./errors.ts";
export { ExitCode, exitCodeOf } from "./run/exit-code.ts";
export type * from "./model/website.ts";
export type * from "./model/website-fields.ts";
export type * from "./model/project.ts";
export type * from "./model/state.ts";
export { normalizeDomain } from "./model/website.ts";
export { PRIVACY_NAMES, WEBSITE_FIELDS } from "./model/website-fields.ts";
export { DEFAULT_POLICY, type Policy } from "./model/policy.ts";
export { matchGlob } from "./model/glob.ts";
export type * from "./api/types.ts";
export { createClient } from "./api/client.ts";
export { readLive } from "./run/read-live.ts";
export * from "./config/index.ts";
export { exportConfig } from "./config/export-config.ts";
export * from "./plan/index.ts";
export type * from "./plan/types.ts";
export { render, type RenderFormat, type RenderOptions } from "./render/index.ts";
export { apply } from "./apply/apply.ts";
export { confirmSavedPlan, intersectReviewed } from "./apply/reviewed.ts";
export { readSavedPlan } from "./apply/saved-plan.ts";
export type * from "./apply/types.ts";
export { startSandbox } from "./sandbox/index.ts";
export type { Sandbox, SandboxOptions } from "./sandbox/index.ts";
