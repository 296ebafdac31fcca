/** The two sides `plan` compares (DESIGN §1): the same canonical shapes, from the config and from the API. */
import type { Policy } from "./policy.ts";
import type { DesiredProject, LiveProject } from "./project.ts";
import type { DesiredWebsite, LiveWebsite } from "./website.ts";

export interface Desired {
  websites: DesiredWebsite[];
  /** `undefined`: projects are not managed at all. */
  projects?: DesiredProject[];
  policy: Policy;
}

export interface Live {
  websites: LiveWebsite[];
  /** `undefined` when the projects were not read. */
  projects?: LiveProject[];
}
