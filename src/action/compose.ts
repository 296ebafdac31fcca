/**
 * Fits a Report into the places GitHub shows it, each with a size limit: a pull-request comment (65,536
 * characters) and a step's job summary (1 MiB). The summary part is kept whole; the details are cut at a
 * line boundary, with a note saying how much was left out and where the rest is.
 */
import { commentFooter, cutNote } from "../render/github-notes.ts";
import type { Report } from "./run-context.ts";

/** GitHub refuses a comment body over 65,536 characters. */
export const COMMENT_LIMIT = 65_536;
/** The Checks API refuses an output's summary or text over 65,535 characters. */
const CHECK_LIMIT = 65_535;
/** GitHub refuses a step summary over 1 MiB ("upload aborted"). */
const SUMMARY_LIMIT = 1_048_576;
/** Room kept for the cut note and the closing tags. */
const NOTE_ROOM = 600;

/** The hidden line that finds this config's comment of `kind` again: one comment of each kind per config file. */
export function markerFor(configLabel: string, kind: "plan" | "apply" | "drift" | "adopt" = "plan"): string {
  // "--" would end the HTML comment early.
  return `<!-- sitesync-${kind}: ${configLabel.replaceAll("--", "-\u200b-")} -->`;
}

export interface CommentParts {
  marker: string;
  /** The commit the plan was made for. */
  headSha?: string | undefined;
  runUrl?: string | undefined;
  /** A fleet leg's section: the cut note sends the reader to that leg's job summary. */
  account?: string | undefined;
}

/** The sticky comment's body: marker, summary, folded details, footer; under COMMENT_LIMIT. */
export function commentBody(report: Report, parts: CommentParts, limit = COMMENT_LIMIT): string {
  const footer = commentFooter(parts.headSha, parts.runUrl);
  return compose(report, {
    prefix: `${parts.marker}\n`,
    suffix: footer ? `\n\n${footer}\n` : "\n",
    fold: true,
    limit,
    cutNote: (shown, total) => cutNote({ in: "comment", runUrl: parts.runUrl, account: parts.account }, shown, total),
  });
}

/** The job summary: everything unfolded, under SUMMARY_LIMIT; the plan file holds the whole plan. */
export function summaryBody(report: Report, planFile?: string, limit = SUMMARY_LIMIT): string {
  return compose(report, {
    prefix: "",
    suffix: "\n",
    fold: false,
    limit,
    cutNote: (shown, total) => cutNote({ in: "summary", planFile }, shown, total),
  });
}

/**
 * A check run's output: the summary (and `note` after it) and the details as its text, each under CHECK_LIMIT,
 * cut at a line with a note that sends the reader to the job summary.
 */
export function checkOutput(report: Report, runUrl: string | undefined, note = ""): { summary: string; text?: string } {
  const layout = {
    prefix: "",
    suffix: "",
    fold: false,
    limit: CHECK_LIMIT,
    cutNote: (shown: number, total: number) => cutNote({ in: "check", runUrl }, shown, total),
  };
  const summary = fitLines(`${report.summary.trimEnd()}${note}`, CHECK_LIMIT - NOTE_ROOM, layout);
  if (!report.details) return { summary };
  return {
    summary,
    text: fitLines(
      `#### ${report.details.title}

${report.details.body}`,
      CHECK_LIMIT - NOTE_ROOM,
      layout,
    ),
  };
}

interface Layout {
  prefix: string;
  suffix: string;
  /** Fold the details in `<details>` (comments); else they follow the summary (job summary). */
  fold: boolean;
  limit: number;
  cutNote: (shown: number, total: number) => string;
}

function compose(report: Report, layout: Layout): string {
  const summary = report.summary.trimEnd();
  const details = report.details;
  if (!details)
    return layout.prefix + fitLines(summary, layout.limit - size(layout.prefix + layout.suffix) - NOTE_ROOM, layout) + layout.suffix;
  const lines = details.body.split("\n").length;
  const open = lines <= 60 ? " open" : "";
  const head = layout.fold ? `${summary}\n\n<details${open}><summary>${details.title}</summary>\n\n` : `${summary}\n\n`;
  const tail = layout.fold ? "\n\n</details>" : "";
  const budget = layout.limit - size(layout.prefix + head + tail + layout.suffix) - NOTE_ROOM;
  if (budget < 0) {
    // The summary alone is too long: cut it, and leave the details out.
    return (
      layout.prefix +
      fitLines(`${summary}\n\n${details.body}`, layout.limit - size(layout.prefix + layout.suffix) - NOTE_ROOM, layout) +
      layout.suffix
    );
  }
  return layout.prefix + head + fitLines(details.body, budget, layout) + tail + layout.suffix;
}

/** `text` whole when it fits in `budget` bytes, else its first lines and the cut note. */
function fitLines(text: string, budget: number, layout: Layout): string {
  if (size(text) <= budget) return text;
  const lines = text.split("\n");
  const { text: shown, count } = firstLines(lines, budget);
  // The blank line ends a table the cut may have left open.
  return `${shown}\n\n> [!NOTE]\n> ${layout.cutNote(count, lines.length)}`;
}

/**
 * The first `lines` that fit in `room` bytes together with what closes the code fences and `<details>` they
 * leave open, and those closers: valid Markdown however it is cut. `count`: how many lines were kept.
 */
export function firstLines(lines: readonly string[], room: number): { text: string; count: number } {
  let used = 0;
  let count = 0;
  let open: Open = { fence: false, details: 0 };
  for (const line of lines) {
    const next = after(open, line);
    if (used + size(line) + 1 + size(closers(next)) > room) break;
    used += size(line) + 1;
    open = next;
    count++;
  }
  return { text: [...lines.slice(0, count), closers(open)].join("\n").trimEnd(), count };
}

/** What a cut has left open: a code fence, and how many `<details>`. */
interface Open {
  fence: boolean;
  details: number;
}

function after(open: Open, line: string): Open {
  if (/^\s*(```|~~~)/.test(line)) return { ...open, fence: !open.fence };
  if (open.fence) return open;
  const opened = line.match(/<details[\s>]/g)?.length ?? 0;
  const closed = line.match(/<\/details>/g)?.length ?? 0;
  return { ...open, details: Math.max(0, open.details + opened - closed) };
}

function closers(open: Open): string {
  return [...(open.fence ? ["```"] : []), ...Array.from({ length: open.details }, () => "\n</details>")].join("\n");
}

/**
 * Sizes are counted in UTF-8 bytes: never fewer than the characters (or UTF-16 units) GitHub may count,
 * so a body that fits by this measure fits by theirs.
 */
export function size(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
