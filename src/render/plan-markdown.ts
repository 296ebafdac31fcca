/**
 * The Markdown rendering of a Plan, for pull-request comments and job summaries (DESIGN §7). GitHub-flavored:
 * alert callouts and tables; never ANSI (STYLE habit 9). Every name and value from the plan is escaped.
 */
import { agree, plural } from "../model/plural.ts";
import type { FieldChange, Plan, ProjectDelete, WebsiteCreate, WebsiteDelete, WebsiteUpdate } from "../plan/types.ts";
import {
  formatEstimate,
  formatValue,
  hasEstimate,
  LEFT_OUT,
  planAccountWords,
  REASONS,
  selectionFlags,
  setDiff,
  writeOnlyNote,
} from "./_values.ts";
import { md } from "./md.ts";
import { refusalWords, type Surface } from "./refusal-words.ts";
import { changeNeedWords, secretNeedsLine } from "./secret-words.ts";
import { notEvaluatedLine, resendsLine, sinceHeadline, unverifiableHow } from "./since-words.ts";

/** Renders a plan as GitHub-flavored Markdown; ends with a newline. */
export function renderMarkdown(plan: Plan, surface: Surface = "cli"): string {
  const { head, body } = planMarkdownParts(plan, surface);
  return `${body === undefined ? head : `${head}\n\n${body}`}\n`;
}

/**
 * The Markdown plan in two parts: the head (heading, banners, the counts table) that a pull request always
 * shows, and the body (one section per action, warnings, footer) that a comment may fold; with no section,
 * the whole plan is the head.
 */
export function planMarkdownParts(plan: Plan, surface: Surface = "cli"): { head: string; body?: string } {
  const head = headBlocks(plan, surface);
  const sections = sectionBlocks(plan);
  const tail = [...(plan.unverifiable.length > 0 ? [unverifiableNote(plan)] : []), footer(plan)];
  if (sections.length === 0) return { head: [...head, ...tail].join("\n\n") };
  return { head: head.join("\n\n"), body: [...sections, ...tail].join("\n\n") };
}

/** What a pull request always shows: the heading, the banners, the counts, the notes, or "No changes". */
function headBlocks(plan: Plan, surface: Surface): string[] {
  const account = planAccountWords(plan);
  const heading = `### sitesync plan for ${md(plan.configFile)}`;
  const blocks: string[] = [account === undefined ? heading : `${heading}\n\nAccount: ${md(account)}`];
  if (plan.selection !== undefined) {
    const flags = selectionFlags(plan.selection, (pattern) => md(pattern));
    const note = `> **Partial plan: ${flags}.** Only the websites and projects these patterns select were compared. ${LEFT_OUT}`;
    blocks.push(["> [!IMPORTANT]", note].join("\n"));
  }
  if (plan.since !== undefined) blocks.push(sinceCallout(plan.since));
  if (plan.refusals.length > 0) {
    const items = plan.refusals.map((r) => `> - ${md(refusalWords(r, surface))}`);
    blocks.push(["> [!CAUTION]", "> **Refused: this plan will not be applied.**", ">", ...items].join("\n"));
  }
  blocks.push(summaryTable(plan));
  const needs = secretNeedsCallout(plan);
  if (needs !== undefined) blocks.push(needs);
  const resends = resendsLine(plan.changes);
  if (resends !== undefined) blocks.push(["> [!NOTE]", `> ${md(resends)}`].join("\n"));
  if (plan.changes.length === 0) {
    blocks.push(
      plan.selection === undefined ? "**No changes.** The account matches the configuration." : "**No changes** inside the selection.",
    );
  }
  return blocks;
}

function sinceCallout(since: NonNullable<Plan["since"]>): string {
  const notEvaluated = notEvaluatedLine(since);
  const lines = [`> **${md(sinceHeadline(since))}**`, ...(notEvaluated === undefined ? [] : [`> ${md(notEvaluated)}`])];
  return [since.known && since.read === "scoped" ? "> [!NOTE]" : "> [!IMPORTANT]", ...lines].join("\n");
}

/** What a comment may fold: a table per action, then the warnings. */
function sectionBlocks(plan: Plan): string[] {
  const blocks: string[] = [];
  const creates = plan.changes.filter((c): c is WebsiteCreate => c.action === "create");
  const updates = plan.changes.filter((c): c is WebsiteUpdate => c.action === "update");
  const deletes = plan.changes.filter((c): c is WebsiteDelete | ProjectDelete => c.action === "delete");
  if (creates.length > 0) blocks.push(`#### Create (${creates.length})`, createTable(creates));
  if (updates.length > 0) blocks.push(`#### Update (${updates.length})`, updateTable(updates));
  if (deletes.length > 0) blocks.push(`#### Delete (${deletes.length})`, deleteWarning(deletes), deleteTable(deletes));
  if (plan.warnings.length > 0) {
    const items = plan.warnings.map((w) => {
      const where = w.source === undefined ? "" : ` (${md(`${w.source.file}:${w.source.line}`)})`;
      return `- ${md(w.message)}${where}`;
    });
    blocks.push("#### Warnings", items.join("\n"));
  }
  return blocks;
}

function summaryTable(plan: Plan): string {
  const s = plan.summary;
  const columns: [string, number][] = [
    ["Create", s.create],
    ["Update", s.update],
    ["Delete", s.delete],
    ["Unchanged", s.unchanged],
    ["Unmanaged", s.unmanaged],
  ];
  if (s.ignored > 0) columns.push(["Ignored", s.ignored]);
  const names = columns.map(([name]) => name);
  return [row(names), row(names.map(() => "---:")), row(columns.map(([, n]) => String(n)))].join("\n");
}

function createTable(creates: readonly WebsiteCreate[]): string {
  const rows = creates.flatMap((c) => {
    const cells = c.fields.map((f): [string, string] => [f.field, md(formatValue(f.field, f.after))]);
    if (c.needs) cells.push([c.needs.secret, NEEDED]);
    return cells.map((cell, i) => row([i === 0 ? md(c.domain) : "", ...cell]));
  });
  return [row(["Website", "Field", "Value"]), row(["---", "---", "---"]), ...rows].join("\n");
}

function updateTable(updates: readonly WebsiteUpdate[]): string {
  const rows = updates.flatMap((u) => {
    const cells = u.fields.map((f): [string, string, string] => [f.field, ...beforeAfter(f)]);
    if (u.needs) cells.push([u.needs.secret, "", NEEDED]);
    return cells.map((cell, i) => row([i === 0 ? `${md(u.domain)} (id ${u.id})` : "", ...cell]));
  });
  return [row(["Website", "Field", "Before", "After"]), row(["---", "---", "---", "---"]), ...rows].join("\n");
}

/** A table cell where the config sets no secret that apply must send: the callout above says what to add. */
const NEEDED = "**not set: apply refuses this change**";

/** The changes that need a secret the config does not set, in the part a pull request always shows. */
function secretNeedsCallout(plan: Plan): string | undefined {
  const line = secretNeedsLine(plan.changes);
  if (line === undefined) return undefined;
  const items = plan.changes.flatMap((change) => {
    const words = changeNeedWords(change);
    return words === undefined || change.kind !== "website" ? [] : [`> - ${md(change.domain)}: ${md(words)}`];
  });
  return ["> [!WARNING]", `> **${md(line)}**`, ...items].join("\n");
}

/** Before and after cells; a set shows what leaves and what arrives rather than two long lists. */
function beforeAfter(f: FieldChange): [string, string] {
  const after = md(formatValue(f.field, f.after));
  const note = writeOnlyNote(f);
  if (note !== undefined) return ["", `${after} _(${md(note)})_`];
  const diff = setDiff(f);
  if (diff !== undefined) {
    return [diff.removed.map((e) => `− ${md(e)}`).join("<br>"), diff.added.map((e) => `+ ${md(e)}`).join("<br>")];
  }
  return [md(formatValue(f.field, f.before)), after];
}

function deleteWarning(deletes: readonly (WebsiteDelete | ProjectDelete)[]): string {
  const websites = deletes.filter((d) => d.kind === "website").length;
  const projects = deletes.length - websites;
  const lines = ["> [!WARNING]"];
  const their = (n: number): string => agree(n, "its", "their");
  if (websites > 0) {
    const destroys = `**destroys ${their(websites)} collected statistics**`;
    lines.push(`> Deleting ${plural(websites, "website")} ${destroys}. This cannot be undone.`);
  }
  if (projects > 0) lines.push(`> Deleting ${plural(projects, "project")} deletes ${their(projects)} reports.`);
  return lines.join("\n");
}

function deleteTable(deletes: readonly (WebsiteDelete | ProjectDelete)[]): string {
  const rows = deletes.map((d) =>
    d.kind === "website"
      ? row([`website ${md(d.domain)} (id ${d.id})`, REASONS[d.reason]])
      : row([`project ${md(d.project)}`, REASONS[d.reason]]),
  );
  return [row(["Item", "Reason"]), row(["---", "---"]), ...rows].join("\n");
}

const FOLLOW = "a plan that follows the change (`--changed-since REF`; the Action's `changed-since`, automatic on pull requests)";
const SYNC = "`--sync-write-only` (the Action's `sync-write-only: true`)";

function upperFirst(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

function unverifiableNote(plan: Plan): string {
  const counts = plan.unverifiable.map(({ field, count }) => `\`${field}\` on ${plural(count, "website")}`).join(", ");
  return [
    "> [!NOTE]",
    `> Write-only values the API never returns cannot be verified: ${counts}. ${upperFirst(unverifiableHow(plan.since, FOLLOW, SYNC))}`,
  ].join("\n");
}

function footer(plan: Plan): string {
  const parts = [`plan ${plan.hash.slice(0, 12)}`];
  if (plan.selection !== undefined) parts.push("partial");
  if (plan.since?.known && plan.since.read === "scoped") parts.push("scoped");
  if (hasEstimate(plan.estimate)) parts.unshift(md(formatEstimate(plan.estimate)));
  return `<sub>${parts.join(" · ")}</sub>`;
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(" | ")} |`;
}
