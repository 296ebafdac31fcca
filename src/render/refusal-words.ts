/**
 * A safety rail's refusal in words (DESIGN §3), for the surface that shows it: the CLI names its flags, the
 * Action its inputs (a workflow author sets `max-deletes:`, not `--max-deletes`). Pure.
 */
import { plural } from "../model/plural.ts";
import type { Refusal } from "../plan/types.ts";

/** Who reads the refusal: a CLI user (flags) or a workflow author (Action inputs). */
export type Surface = "cli" | "action";

export function refusalWords(refusal: Refusal, surface: Surface): string {
  const selection = surface === "cli" ? "--target/--exclude" : "target/exclude";
  const inside = refusal.partial ? ` inside the ${selection} selection` : "";
  if (refusal.code === "max-deletes") {
    const what = [plural(refusal.websites, "website"), plural(refusal.projects, "project")]
      .filter((part) => !part.startsWith("0 "))
      .join(" and ");
    const deletes = refusal.websites + refusal.projects;
    const override = surface === "cli" ? `run again with --max-deletes ${deletes}` : `set the max-deletes input to ${deletes}`;
    return `The plan deletes ${what}${inside}, more than the limit of ${refusal.limit}. Check every delete, then ${override} (or raise policy.max_deletes).`;
  }
  const { kind, pruned } = refusal;
  const lost = kind === "website" ? "their collected statistics" : "their reports";
  const override = surface === "cli" ? "run again with --allow-empty" : "set the allow-empty input to true";
  return (
    `policy.prune is on and the config lists no ${kind} to keep${inside}: the plan would delete ` +
    `${plural(pruned, `live ${kind}`)} and ${lost}. If that is really intended, ${override}.`
  );
}
