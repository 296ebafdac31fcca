/**
 * The sections of a run's accounts together (DESIGN §1: one shape for one account or fifty): an account of a
 * config without `accounts:` is shown as it is; named accounts each under a heading with the address it read,
 * then one line that sums them up. Pure.
 */

import { plural } from "../model/plural.ts";
import type { AccountRun } from "../run/types.ts";
import { accountWords, printable, summaryWords } from "./_values.ts";
import { md } from "./md.ts";
import type { Sections } from "./sections.ts";

/** Each account's run with its sections, in the root file's order. */
export type AccountSections = readonly { run: AccountRun; sections: Sections }[];

export function accountsSections(accounts: AccountSections, format: "text" | "markdown"): Sections {
  const [first] = accounts;
  if (accounts.length === 1 && first?.run.name === "") return first.sections;
  const blocks: string[] = [];
  const notes: string[] = [];
  const failures: string[] = [];
  const details: string[] = [];
  for (const { run, sections } of accounts) {
    const { name } = run;
    const where = accountWords(run.target);
    const heading =
      format === "text"
        ? `── account ${printable(name)}${where ? ` (${printable(where)})` : ""} ──`
        : `## Account ${md(name)}${where ? ` (${md(where)})` : ""}`;
    // `--quiet`, or a failure (its error is a note): no heading over nothing.
    if (sections.summary.trim() !== "") blocks.push(`${heading}\n\n${sections.summary.trimEnd()}`);
    for (const note of sections.notes) notes.push(`[${name}] ${note}`);
    if (sections.details) details.push(`#### ${md(name)}: ${sections.details.title}\n\n${sections.details.body}`);
    if (sections.failure) failures.push(`${name}: ${sections.failure}`);
  }
  const total = accounts.map(({ run }) => `${format === "text" ? printable(run.name) : md(run.name)}: ${verdict(run, format)}`);
  blocks.push(format === "text" ? `Accounts: ${total.join("; ")}.` : `**Accounts:** ${total.join("; ")}.`);
  const sections: Sections = { summary: `${blocks.join("\n\n")}\n`, notes };
  if (details.length > 0) sections.details = { title: `Show the plans of ${accounts.length} accounts`, body: details.join("\n\n") };
  if (failures.length > 0) sections.failure = failures.join("; ");
  return sections;
}

/** One account in the summary across accounts: what its run came to. */
function verdict(run: AccountRun, format: "text" | "markdown"): string {
  // A terminal shows the error among the notes, after this line; an adapter of Markdown places it where it shows errors.
  if (run.error !== undefined) return format === "text" ? "failed (error below)" : "failed (see its error)";
  if (run.results) {
    const c = run.results.counts;
    return `${c.applied} applied, ${c.failed} failed, ${c.skipped} skipped`;
  }
  if (run.plan) return run.plan.refusals.length > 0 ? "refused" : summaryWords(run.plan.summary);
  if (run.adopted) {
    const { files } = run.adopted;
    if (files.some(({ result }) => !result.ok)) return "refused, nothing written";
    const changed = files.filter(({ source, result }) => result.ok && result.text !== source).length;
    return changed === 0 ? "already matches" : `changes in ${plural(changed, "file")}`;
  }
  return "nothing to do";
}
