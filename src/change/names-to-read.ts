/**
 * Which touched names a scoped read must look up (DESIGN §3): every touched website and project, except
 * those the plan needs no live copy of: a removed entry while prune is off (the plan would only count it as
 * unmanaged) and a name `policy.ignore` matches (never compared). Pure.
 */

import type { ConfigChange } from "../model/config-change.ts";
import { firstMatch } from "../model/glob.ts";
import type { Policy } from "../model/policy.ts";

export interface NamesToRead {
  /** Normalized domains, sorted. */
  websites: string[];
  /** Project names as written, sorted like the change. */
  projects: string[];
}

export function namesToRead(change: ConfigChange, policy: Policy): NamesToRead {
  const needed = (name: string, touch: string) => (touch !== "removed" || policy.prune) && firstMatch(policy.ignore, name) === undefined;
  return {
    websites: change.websites.filter((w) => needed(w.domain, w.touch)).map((w) => w.domain),
    projects: change.projects.filter((p) => needed(p.project, p.touch)).map((p) => p.project),
  };
}
