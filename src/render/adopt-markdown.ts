/**
 * `adopt` as GitHub-flavored Markdown: the body of the drift check's adopt pull request (DESIGN §7). What
 * changed in each file and what was left out first, the diff as details; or, refused, every line that cannot be
 * updated and that nothing was pushed. Pure; every name and message escaped.
 */
import type { UpdateSummary } from "../adopt/update-config.ts";
import { formatDiagnostic } from "../errors.ts";
import { plural } from "../model/plural.ts";
import type { Adopted } from "../run/types.ts";
import { md } from "./md.ts";
import type { Sections } from "./sections.ts";

interface AdoptContext {
  configLabel: string;
  /** A file's path as the repository names it. */
  pathOf: (file: string) => string;
}

export function adoptMarkdown(adopted: Adopted, context: AdoptContext): Sections {
  const file = `\`${md(context.configLabel)}\``;
  const heading = `### sitesync adopt for ${md(context.configLabel)}`;
  const refused = adopted.files.flatMap(({ result }) => (result.ok ? [] : result.diagnostics));
  if (refused.length > 0) {
    const lines = refused.map((d) => `- ${md(formatDiagnostic(d))}`);
    const why = `> [!CAUTION]\n> The live changes cannot be accepted into ${file} safely: nothing was pushed. Edit these lines by hand, or apply the config to put the account back.`;
    return {
      summary: [heading, why, lines.join("\n")].join("\n\n"),
      notes: [],
      failure: `adopt cannot update ${plural(refused.length, "line")} safely, so no pull request was written: see the job summary`,
    };
  }
  const changed = adopted.files.filter(({ source, result }) => result.ok && result.text !== source);
  const intro =
    `The account differs from ${file} on the default branch: someone changed websites outside git (the web UI?). ` +
    "This pull request accepts the live state into the file, rewriting only the drifted lines (`sitesync adopt`): " +
    "comments, order, anchors, defaults and `${VAR}` references stay as they are.";
  const lines = changed.map(({ file: name, result }) => (result.ok ? `- \`${md(context.pathOf(name))}\`: ${counts(result.summary)}` : ""));
  const blocks = [heading, intro, lines.join("\n"), ...leftOut(adopted)];
  blocks.push(
    "Merge it if the change was on purpose. If not, close it and apply the config (the apply workflow, or `sitesync apply`) to put the account back.",
  );
  const diff = changed.flatMap(({ result }) => (result.ok ? [result.diff] : [])).join("");
  const fence = "`".repeat(Math.max(3, longestRun(diff) + 1));
  const details = { title: `Show the edit (${plural(changed.length, "file")})`, body: `${fence}diff\n${diff.trimEnd()}\n${fence}` };
  return { summary: blocks.filter((block) => block !== "").join("\n\n"), details, notes: [] };
}

function counts(s: UpdateSummary): string {
  const parts = [`${s.updated.length} updated`, `${s.added.length} added`, `${s.removed.length} removed`];
  if (s.restored.length > 0) parts.push(`${s.restored.length} restored`);
  return `websites ${parts.join(", ")}`;
}

/** What the edit does not hold: websites no file lists, and project changes (projects are never adopted). */
function leftOut({ unmanaged, projectChanges }: Pick<Adopted, "unmanaged" | "projectChanges">): string[] {
  const notes: string[] = [];
  if (unmanaged.length > 0) {
    notes.push(
      `${plural(unmanaged.length, "live website")} no file lists ${unmanaged.length === 1 ? "is" : "are"} left out (prune is off).`,
    );
  }
  if (projectChanges > 0) notes.push(`The plan still holds ${plural(projectChanges, "project change")}: projects are never adopted.`);
  return notes.length > 0 ? [`> [!NOTE]\n> ${notes.join(" ")}`] : [];
}

/** The longest run of backticks in `text`: the fence around it must be longer, so nothing inside can close it. */
function longestRun(text: string): number {
  return Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
}
