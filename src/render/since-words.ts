/**
 * The words of a plan that follows the change (DESIGN §3 "Plans that follow the change"): what it read, what
 * it did not evaluate, why it read in full, why no change is known, and why a write-only value is sent. The
 * same sentences in text and Markdown; the JSON plan holds the codes (`since`, `changedSince`).
 */
import type { FullReadCause, UnknownChangeReason } from "../model/config-change.ts";
import { agree, plural } from "../model/plural.ts";
import { isResendOnly } from "../plan/follow-change.ts";
import type { Change, NotEvaluated, PlanSince } from "../plan/types.ts";
import { printable } from "./_values.ts";

const CAUSES = {
  defaults: "defaults changed",
  policy: "policy changed",
  "websites-url": "websites_url changed",
  "projects-url": "projects_url changed",
  accounts: "accounts changed",
  include: "include changed",
  "full-flag": "--full",
  "over-budget": "looking the touched names up would cost more requests than reading the account",
  unsearchable: "a touched name cannot be searched for",
  "no-total": "the server gives no total to weigh the lookups against",
} as const satisfies Record<FullReadCause, string>;

const UNKNOWN = {
  "not-a-repository": "the config is not in a git repository",
  "ref-invalid": "it is not a git revision",
  "ref-unknown":
    "git knows no such revision, and it could not be fetched: check its spelling; a shallow clone needs the history it names " +
    "(git fetch --deepen=N, or actions/checkout with fetch-depth: 0)",
  "file-outside-repository": "the config is outside the git repository",
  "base-missing": "the config file does not exist there",
  "base-unreadable": "the config file cannot be read there",
  "base-too-large": "the config there is larger than a config may be",
  "base-invalid": "the config file there does not load",
  "base-tree-too-large": "the config's folder there holds too many files to match include: against (more than 200,000)",
  "many-files": "the base was given as one file's text, without the files its include: names",
} as const satisfies Record<UnknownChangeReason, string>;

/** The same, about a file the root includes: the reasons that can name one. */
const UNKNOWN_INCLUDED: Partial<Record<UnknownChangeReason, (file: string) => string>> = {
  "base-unreadable": (file) => `${file}, which it includes, cannot be read there`,
  "base-invalid": (file) => `${file}, which it includes, does not load there`,
};

const NOT_EVALUATED = {
  "untouched-drift": "drift of websites and projects the change does not touch",
  "unlisted-live": "live websites and projects the file does not list",
} as const satisfies Record<NotEvaluated, string>;

/** `HEAD~1 (1a2b3c4d)`: the base as given, and the commit it named when that says more. */
function base(since: PlanSince): string {
  const commit = since.known && since.commit && !since.commit.startsWith(since.ref) ? ` (${since.commit.slice(0, 12)})` : "";
  return `${printable(since.ref)}${commit}`;
}

/** `sitesync matrix`'s note when the change cannot be read: every account is listed, and why. */
export function matrixUnknownNote(ref: string, reason: UnknownChangeReason): string {
  return `note: the change since ${printable(ref)} is not known (${UNKNOWN[reason]}): every account is listed`;
}

/** The plan's one sentence about the change it followed: shown at the top of every human rendering. */
export function sinceHeadline(since: PlanSince): string {
  if (!since.known) {
    const included = since.file === undefined ? undefined : UNKNOWN_INCLUDED[since.reason]?.(printable(since.file));
    return `No change known since ${printable(since.ref)} (${included ?? UNKNOWN[since.reason]}): the account was read in full.`;
  }
  if (since.read === "full") {
    return `Follows the change since ${base(since)}, read in full: ${since.because.map((cause) => CAUSES[cause]).join("; ")}.`;
  }
  if (since.websites.length === 0 && since.projects.length === 0) {
    return `Scoped to the change since ${base(since)}: it touches no website or project here, so none was read.`;
  }
  const websites = since.websites.length > 0 || since.projects.length === 0 ? [plural(since.websites.length, "website")] : [];
  const read = [...websites, ...(since.projects.length > 0 ? [plural(since.projects.length, "project")] : [])];
  const were = agree(since.websites.length + since.projects.length, "was", "were");
  return `Scoped to the change since ${base(since)}: only the ${read.join(" and ")} it touches ${were} read and compared.`;
}

/**
 * How to send the write-only values a plan cannot verify, after the flag that follows the change (text or
 * Markdown): when it was given but its base could not be read, the edits of that change are not sent, and the
 * plan says so instead of pointing at the flag again.
 */
export function unverifiableHow(since: PlanSince | undefined, follow: string, sync: string): string {
  if (since !== undefined && !since.known) {
    return `the change since ${printable(since.ref)} could not be read (said above), so the values it edits are not sent: make that revision readable and plan again, or ${sync} sends every one the file sets.`;
  }
  return `${follow} sends the ones a commit edits, ${sync} sends every one the file sets.`;
}

/** What a scoped plan did not look at, and how to look (empty for any other plan). */
export function notEvaluatedLine(since: PlanSince): string | undefined {
  if (!since.known || since.read !== "scoped") return undefined;
  return `Not evaluated: ${since.notEvaluated.map((code) => NOT_EVALUATED[code]).join("; ")}. A plan without --changed-since (or with --full) reads them.`;
}

/**
 * The plan's sentence about its re-sends (undefined when it has none): updates that only send again what
 * applying the change sent already, which `--detailed-exitcode` does not count, and how to stop them.
 */
export function resendsLine(changes: readonly Change[]): string | undefined {
  const resends = changes.filter(isResendOnly);
  const [first] = resends;
  if (first === undefined || first.kind !== "website" || first.action !== "update") return undefined;
  const since = first.fields[0]?.changedSince;
  if (since?.resend === undefined) return undefined;
  const commit = printable(since.resend.commit.slice(0, 12));
  const n = resends.length;
  return (
    `${plural(n, "update")} only ${agree(n, "re-sends", "re-send")} what applying the change since ${printable(since.ref)} sent already ` +
    `(${agree(n, "its website was", "their websites were")} written since ${commit}, the commit the config is): ` +
    `--detailed-exitcode counts ${agree(n, "it", "them")} as no change; --changed-since ${commit} stops re-sending.`
  );
}
