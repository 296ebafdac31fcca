import type { Action, Change, PlanSummary } from "./types.ts";

/** The plan's counts: the changes counted from `changes` itself, beside the items left alone and why. */
export function summarize(changes: readonly Change[], left: Omit<PlanSummary, Action>): PlanSummary {
  const count = (action: Action): number => changes.filter((c) => c.action === action).length;
  return { create: count("create"), update: count("update"), delete: count("delete"), ...left };
}
