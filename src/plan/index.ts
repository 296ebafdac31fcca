// The plan stage (DESIGN §1): the pure planner, fingerprints and the renderers.
export { plan, type Desired, type Live, type PlanOptions } from "./plan.ts";
export { planHash, projectFingerprint, websiteFingerprint } from "./fingerprint.ts";
export { render, type RenderFormat, type RenderOptions } from "./render/index.ts";
export * from "./types.ts";
