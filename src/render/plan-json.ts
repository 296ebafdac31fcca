/** The JSON rendering: the plan itself, which is already secret-free (DESIGN §3) and saved as `plan --out`. */
import type { Plan } from "../plan/types.ts";

/** Renders a plan as indented JSON; ends with a newline. */
export function renderJson(plan: Plan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}
