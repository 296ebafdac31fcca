/** What the config says about deleting and comparing (DESIGN §2 `policy`), as `plan` reads it. */
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

export const DEFAULT_POLICY: Policy = { prune: false, maxDeletes: 5, protect: [], ignore: [] };
