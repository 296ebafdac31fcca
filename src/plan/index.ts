// The plan stage (DESIGN §1): the pure planner and fingerprints. Its renderings live in src/render/.

export { planHash, projectFingerprint, websiteFingerprint } from "./fingerprint.ts";
export type { PlanChange } from "./follow-change.ts";
export { confirmSavedPlan, intersectReviewed } from "./intersect.ts";
export { type PlanOptions, plan } from "./plan.ts";
export * from "./types.ts";
