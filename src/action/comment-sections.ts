/**
 * One plan comment per config, one section per account (issue 19 item 5): each leg of a fleet's matrix
 * writes its account's section and leaves the others as they are. A section runs from its start line to
 * its end line; sections are kept sorted by account name, so two legs agree on the order. Pure.
 */

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

/** The sections of a comment body, by account, each with its start and end lines. */
function sectionsOf(body: string): Map<string, string> {
  const sections = new Map<string, string>();
  const pattern = /<!-- sitesync-account: (.+?) -->\n[\s\S]*?\n<!-- \/sitesync-account: \1 -->/g;
  for (const match of body.matchAll(pattern)) sections.set(match[1] ?? "", match[0]);
  return sections;
}

/** The section of `account` in `body` (start and end lines included), or undefined. */
export function sectionOf(body: string, account: string): string | undefined {
  return sectionsOf(body).get(inComment(account));
}

/** `content` as the section of `account`. */
export function section(account: string, content: string): string {
  return `${start(account)}\n${content.trim()}\n${end(account)}`;
}

/**
 * The comment with `own` (a `section`) as its account's section, every other section of `bodies` kept
 * (a race may have left two comments: their sections are merged), sorted by account, under `marker`.
 */
export function withSection(marker: string, bodies: readonly string[], account: string, own: string): string {
  const all = new Map<string, string>();
  for (const body of bodies) for (const [name, text] of sectionsOf(body)) all.set(name, text);
  all.set(inComment(account), own);
  const sorted = [...all.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, text]) => text);
  return `${marker}\n${sorted.join("\n\n")}\n`;
}
