/**
 * What every adapter shows of an Outcome (issue 16): the same sections, from one renderer, in text for a
 * terminal or Markdown for GitHub. The CLI prints the summary to stdout and the notes to stderr; the Action
 * puts the summary and the details into its job summary and comment, and fails the step with `failure`.
 */
export interface Sections {
  /** Shown first and whole: heading, verdict, counts (the CLI's stdout). */
  summary: string;
  /** The long part: folded in a comment, cut with a note when the comment would be too long. */
  details?: { title: string; body: string };
  /** Text: lines for stderr, after the summary (Markdown places its notes in the summary, as callouts). */
  notes: string[];
  /** Why the run failed, when it did: one line (the Action's failed step). */
  failure?: string;
}

/**
 * How the review of an apply on merge went, as the Action found it (issue 13): `applied`/`partial` are
 * decided after the run; the others before it: `direct-push` (no pull request was merged by this push),
 * `stale` (the last plan was for another head commit), `no-review` (no usable plan comment, or not a push),
 * `unreviewed` (`apply-unreviewed: true` by hand).
 */
export type ReviewStatus = "applied" | "partial" | "no-review" | "stale" | "direct-push" | "unreviewed";

/** Why the Action validated a config offline instead of planning it. */
export type OfflineReason = "fork" | "no-api-key";
