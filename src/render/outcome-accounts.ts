/**
 * The Outcome of a config of many accounts (issue 19 item 4): each account's sections under its name and
 * address, through the same renderer as a single account, then one summary across accounts. Pure.
 */

import { plural } from "../model/plural.ts";
import type { AccountOutcome, Outcome } from "../run/types.ts";
import { accountWords, printable, summaryWords } from "./_values.ts";
import { md } from "./md.ts";
import type { Sections } from "./sections.ts";

/** How one account's sections are made: the one renderer of an Outcome, for the same target. */
type RenderOne = (outcome: Outcome) => Sections;

/** The sections of every account, in the root file's order, and the line that sums them up. */
export function accountsSections(accounts: readonly AccountOutcome[], format: "text" | "markdown", renderOne: RenderOne): Sections {
  const blocks: string[] = [];
  const notes: string[] = [];
  const failures: string[] = [];
  const details: string[] = [];
  for (const { name, outcome } of accounts) {
    const sections = renderOne(outcome);
    const target = outcome.plan?.target ?? outcome.updated?.many?.target;
    // The address it read, else (it failed before reading) the one its file names.
    const config = typeof outcome.config === "object" ? outcome.config : undefined;
    const where = target ? accountWords(target) : config?.websitesUrl;
    const heading =
      format === "text"
        ? `── account ${printable(name)}${where ? ` (${printable(where)})` : ""} ──`
        : `## Account ${md(name)}${where ? ` (${md(where)})` : ""}`;
    // `--quiet`, or a failure (its error is a note): no heading over nothing.
    if (sections.summary.trim() !== "") blocks.push(`${heading}\n\n${sections.summary.trimEnd()}`);
    notes.push(...sections.notes.map((note) => `[${name}] ${note}`));
    if (sections.details) details.push(`#### ${md(name)}: ${sections.details.title}\n\n${sections.details.body}`);
    if (sections.failure) failures.push(`${name}: ${sections.failure}`);
  }
  const total = accounts.map(({ name, outcome }) => `${format === "text" ? printable(name) : md(name)}: ${verdict(outcome, format)}`);
  blocks.push(format === "text" ? `Accounts: ${total.join("; ")}.` : `**Accounts:** ${total.join("; ")}.`);
  const sections: Sections = { summary: `${blocks.join("\n\n")}\n`, notes };
  if (details.length > 0) sections.details = { title: `Show the plans of ${accounts.length} accounts`, body: details.join("\n\n") };
  if (failures.length > 0) sections.failure = failures.join("; ");
  return sections;
}

/** One account in the summary across accounts: what its run came to. */
function verdict(outcome: Outcome, format: "text" | "markdown"): string {
  // A terminal shows the error among the notes, after this line; an adapter of Markdown places it where it shows errors.
  if (outcome.error !== undefined) return format === "text" ? "failed (error below)" : "failed (see its error)";
  if (outcome.results) {
    const c = outcome.results.counts;
    return `${c.applied} applied, ${c.failed} failed, ${c.skipped} skipped`;
  }
  if (outcome.plan) return outcome.plan.refusals.length > 0 ? "refused" : summaryWords(outcome.plan.summary);
  if (outcome.updated) {
    const { files } = outcome.updated;
    if (files.some(({ result }) => !result.ok)) return "refused, nothing written";
    const changed = files.filter(({ source, result }) => result.ok && result.text !== source).length;
    return changed === 0 ? "already matches" : `changes in ${plural(changed, "file")}`;
  }
  return "nothing to do";
}
