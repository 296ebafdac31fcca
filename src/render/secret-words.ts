/**
 * The words of a change that would send a secret the config does not set (`needs`: DESIGN §2, §7): what to add
 * and where, the same in every output that names the change (the plan's text and Markdown, the Action's
 * annotations, apply's refusal of it). Pure.
 */
import { agree, plural } from "../model/plural.ts";
import type { SourcePos } from "../model/website.ts";
import { needsSecret } from "../plan/secret-need.ts";
import type { Change, SecretNeed } from "../plan/types.ts";
import { printable } from "./_values.ts";

/** The variable the words suggest: any name works, this one reads as what it holds. */
const VARIABLE = "STATS_PASSWORD";

function why(need: SecretNeed): string {
  switch (need.because) {
    case "create":
      return "it is created with privacy password";
    case "privacy-change":
      return "it becomes password-protected and the account stores no password for it";
    case "rotated":
      return `its password_version changed since ${printable(need.ref)}`;
  }
}

/**
 * `needs a password (it is created with privacy password): add "password: ${STATS_PASSWORD}" to this website
 * (sitesync.yaml:12:5) or to defaults, and set STATS_PASSWORD; apply refuses this change until then`.
 */
function secretNeedWords(need: SecretNeed, source?: SourcePos): string {
  const where = source === undefined ? "" : ` (${printable(`${source.file}:${source.line}:${source.column}`)})`;
  return (
    `needs a ${need.secret} (${why(need)}): add "password: \${${VARIABLE}}" to this website${where} or to defaults, ` +
    `and set ${VARIABLE}; apply refuses this change until then`
  );
}

/** The words of `change`'s need, when it has one. */
export function changeNeedWords(change: Change): string | undefined {
  const need = needsSecret(change);
  return need === undefined ? undefined : secretNeedWords(need, change.source);
}

/** How many changes of a plan need a secret, in one sentence (undefined when none does): they are drift, counted, and not applied. */
export function secretNeedsLine(changes: readonly Change[]): string | undefined {
  const n = changes.filter((change) => needsSecret(change) !== undefined).length;
  if (n === 0) return undefined;
  return `${plural(n, "change")} ${agree(n, "needs", "need")} a password the config does not set: apply refuses ${agree(n, "it", "them")} until the config sets one.`;
}
