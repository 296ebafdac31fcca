/**
 * What every adapter shows of an Outcome (DESIGN §9: words are chosen once, in render/): the same sections, from one renderer, in text for a
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

/** Why the Action validated a config offline instead of planning it. */
export type OfflineReason = "fork" | "no-api-key";
