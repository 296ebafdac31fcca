import type { ApplyCounts, ItemResult } from "./types.ts";

/** The counts of an apply, counted from its items; `unchanged` is the plan's. */
export function countItems(items: readonly ItemResult[], unchanged: number): ApplyCounts {
  const count = (status: ItemResult["status"]) => items.filter((i) => i.status === status).length;
  return { applied: count("applied"), failed: count("failed"), skipped: count("skipped"), unchanged };
}
