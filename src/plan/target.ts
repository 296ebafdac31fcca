/**
 * The account check, in one place: a plan applies only to the account it was read from (DESIGN §2, §3).
 * Ids and fingerprints of a cloned account would match too, so the API URLs decide.
 */
import type { Plan } from "./types.ts";

/** Which API's URL differs between where a plan was made and where it would be applied. */
export interface TargetMismatch {
  api: "websites" | "projects";
  planned: string;
  actual: string | undefined;
}

/** The first API whose URL the plan names and `actual` does not share, or undefined when they agree. */
export function targetMismatch(planned: Plan["target"], actual: Plan["target"]): TargetMismatch | undefined {
  for (const api of ["websites", "projects"] as const) {
    const url = planned[api];
    if (url !== undefined && url !== actual[api]) return { api, planned: url, actual: actual[api] };
  }
  return undefined;
}
