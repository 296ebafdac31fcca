// The plan stage (DESIGN §1): the pure planner and fingerprints. Its renderings live in src/render/.
export { plan, type PlanOptions } from "./plan.ts";
export { planHash, projectFingerprint, websiteFingerprint } from "./fingerprint.ts";
export * from "./types.ts";
