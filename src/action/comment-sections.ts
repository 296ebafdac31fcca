/**
 * One comment per config (the plan comment, the merge's apply comment), one section per account (DESIGN §7):
 * each leg of a fleet's matrix writes its account's section and leaves the others as they are. A section runs
 * from its start line to its end line; sections are kept sorted by account name, so two legs agree on the
 * order. A config without `accounts:` is one account named "", whose section is the whole comment after the
 * marker, with no start or end line: the comments written before sections existed read the same. Pure.
 *
 * The comment must fit GitHub's limit whole, or GitHub refuses it (422) and the plan comment is lost. Legs
 * run at once and cannot agree, so each account's share is decided from what every leg knows alike: the
 * accounts of the config, which every leg loads the same (`sectionBudget`). A leg writes its section within
 * that share, and checks the whole body before every write (`withSection`): sections that push it over (an
 * account removed from the config, a section written when the config had fewer accounts) are dropped or
 * shortened, never the leg's own.
 */
import { COMMENT_LIMIT, size } from "./compose.ts";
import { shortenSection } from "./shorten-section.ts";

/** The config's identity for one account's section: its reviewed plan is for this, not for the config. */
export function sectionIdentity(configLabel: string, account: string): string {
  return `${configLabel}#${account}`;
}

const start = (account: string) => `<!-- sitesync-account: ${inComment(account)} -->`;
const end = (account: string) => `<!-- /sitesync-account: ${inComment(account)} -->`;

/** Account names are `[A-Za-z0-9][A-Za-z0-9_.-]*` (the schema); "--" would still end the HTML comment early. */
function inComment(account: string): string {
  return account.replaceAll("--", "-\u200b-");
}

/** The sections of a comment body, by account, each with its start and end lines; "" for a body without any. */
export function sectionsOf(body: string): Map<string, string> {
  const sections = new Map<string, string>();
  const pattern = /<!-- sitesync-account: (.+?) -->\n[\s\S]*?\n<!-- \/sitesync-account: \1 -->/g;
  for (const match of body.matchAll(pattern)) sections.set(match[1] ?? "", match[0]);
  const content = body.slice(body.indexOf("\n") + 1).trim();
  if (sections.size === 0 && body.includes("\n") && content !== "") sections.set("", content);
  return sections;
}

/** The section of `account` in `body` (start and end lines included), or undefined. */
export function sectionOf(body: string, account: string): string | undefined {
  return sectionsOf(body).get(inComment(account));
}

/** `content` as the section of `account` (of "": the content alone). */
export function section(account: string, content: string): string {
  return account === "" ? content.trim() : `${start(account)}\n${content.trim()}\n${end(account)}`;
}

/**
 * The bytes one account's section may take, start and end lines included, in a comment of `accounts`
 * sections under `marker`: together they fit COMMENT_LIMIT whatever they hold. One account keeps it all.
 */
export function sectionBudget(marker: string, accounts: number): number {
  // The body is the marker line, the sections each followed by a blank line but the last, and a newline.
  return Math.floor((COMMENT_LIMIT - size(marker) - 2) / Math.max(1, accounts)) - 2;
}

/**
 * The comment with `own` (a `section`) as its account's section, every other section of `bodies` kept
 * (a race may have left two comments: their sections are merged), sorted by account, under `marker`,
 * within COMMENT_LIMIT: when the sections would not fit, those of accounts not in `accounts` (the config's,
 * when known) are dropped, then the others cut to their share, largest first, `own` last. Throws when even
 * that cannot fit (so many accounts that a share holds no section).
 */
export function withSection(marker: string, bodies: readonly string[], account: string, own: string, accounts?: readonly string[]): string {
  const all = new Map<string, string>();
  for (const body of bodies) for (const [name, text] of sectionsOf(body)) all.set(name, text);
  const mine = inComment(account);
  // A config is one account or named ones: a section of the other kind is from before the config changed.
  for (const name of all.keys()) if ((name === "") !== (mine === "")) all.delete(name);
  all.set(mine, own);
  const body = () =>
    `${marker}\n${[...all.keys()]
      .sort()
      .map((name) => all.get(name))
      .join("\n\n")}\n`;
  if (size(body()) <= COMMENT_LIMIT) return body();
  if (accounts) {
    const known = new Set(accounts.map(inComment));
    for (const name of all.keys()) if (name !== mine && !known.has(name)) all.delete(name);
  }
  const budget = sectionBudget(marker, Math.max(accounts?.length ?? 0, all.size));
  const bySize = [...all.keys()]
    .filter((name) => name !== mine)
    .sort((a, b) => size(all.get(b) ?? "") - size(all.get(a) ?? "") || (a < b ? -1 : 1));
  for (const name of [...bySize, mine]) {
    if (size(body()) <= COMMENT_LIMIT) break;
    const short = shortenSection(all.get(name) ?? "", budget);
    if (short === undefined) break;
    all.set(name, short);
  }
  if (size(body()) > COMMENT_LIMIT) {
    throw new Error(
      `the plan comment cannot hold ${all.size} accounts' sections within GitHub's ${COMMENT_LIMIT} characters: ` +
        "split the fleet over several config files (one comment each); the plans are in the job summaries",
    );
  }
  return body();
}
