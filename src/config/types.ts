import type { Diagnostic } from "../errors.ts";
import type { DesiredProject } from "../model/project.ts";
import type { DesiredWebsite } from "../model/website.ts";

export interface Policy {
  /** Delete live websites/projects that the file does not list. */
  prune: boolean;
  /** A plan with more deletes is refused unless overridden (`--max-deletes N`). */
  maxDeletes: number;
  /** Globs (`*` matches any run of characters) of names that are never deleted. */
  protect: string[];
  /** Globs of names that are never compared, changed or deleted. */
  ignore: string[];
}

/** The policy of a config without a `policy:` block: no prune, at most 5 deletes, nothing protected or ignored. */
export const DEFAULT_POLICY: Policy = { prune: false, maxDeletes: 5, protect: [], ignore: [] };

/** A loaded, validated and normalized config: the Desired side of the pipeline. */
export interface Config {
  /** The path the config was read from, as given. */
  file: string;
  /** sha256 (hex) of the raw file bytes: a saved plan refuses to apply when it changed. */
  digest: string;
  websitesUrl?: string;
  projectsUrl?: string;
  policy: Policy;
  /** Every listed website with `defaults` applied, domains normalized, in file order. */
  websites: DesiredWebsite[];
  /** `undefined` when the file has no `projects` key: projects are then not managed at all. */
  projects?: DesiredProject[];
  /** Every secret value the file resolved (passwords), so that outputs can be checked and masked. */
  secrets: string[];
}

export type LoadResult =
  | { ok: true; config: Config; warnings: Diagnostic[] }
  | { ok: false; errors: Diagnostic[]; warnings: Diagnostic[] };
