/**
 * The check that ends every update: the edited text, read as `plan` will read it, is valid and plans to no
 * website change against the account.
 */
import type { Diagnostic } from "../../errors.ts";
import type { LiveProject } from "../../model/project.ts";
import { type LiveWebsite, normalizeDomain } from "../../model/website.ts";
import { plan } from "../../plan/plan.ts";
import type { ReadConfig } from "./_read.ts";
import type { Edits } from "./_text.ts";

/** What the checks read of the update: the file, its text and the live state it was given. */
interface SettleInput {
  file: string;
  source: string;
  live: { websites: LiveWebsite[]; projects?: LiveProject[] };
}

type Reread = (text: string) => ReadConfig | { diagnostics: Diagnostic[] };

/**
 * `settle`'s check on the edited entries alone (DESIGN §8, scale: parsing the whole file again was half the
 * time of `adopt`). Every other entry is byte for byte one the first read validated and found without drift,
 * so the file with only the edited entries left in, read and planned against their live websites, checks the
 * same. Only in the plain case: a block list whose entries each start on their `- ` line (`starts`), no anchor
 * or alias anywhere, nothing added, removed or restored. Otherwise, or on any problem, undefined: `settle` then
 * checks the whole file (and words the diagnostics at the file's own lines).
 */
export function settleEdited(
  input: SettleInput,
  reread: Reread,
  edits: Edits,
  starts: readonly number[] | undefined,
  before: ReadConfig,
  summary: { added: readonly string[]; removed: readonly string[]; restored: readonly string[] },
): { projectChanges: number } | undefined {
  if (summary.added.length > 0 || summary.removed.length > 0 || summary.restored.length > 0) return undefined;
  if (starts === undefined || before.anchored) return undefined;
  // The last entry stays whatever it holds: what follows it (comments, other keys) is not cut.
  const touched = edits.touched(starts);
  const untouched: [number, number][] = [];
  for (let i = 0; i + 1 < starts.length; i++) if (!touched.has(i)) untouched.push([starts[i] as number, starts[i + 1] as number]);
  const after = reread(edits.apply(untouched));
  if ("diagnostics" in after) return undefined;
  const websites = after.normalized.websites.map((entry) => entry.site);
  const domains = new Set(websites.map((site) => site.domain));
  const live = input.live.websites.filter((site) => domains.has(normalizeDomain(site.domain)));
  const policy = { ...after.normalized.policy, prune: false };
  const result = plan({ websites, policy }, { websites: live }, { configFile: input.file, configDigest: "" });
  if (result.changes.some((change) => change.kind === "website")) return undefined;
  return { projectChanges: projectChanges(before, input) };
}

/** Project changes the plan holds: projects are never edited, so the file as it was read tells. */
function projectChanges(read: ReadConfig, input: SettleInput): number {
  const { normalized } = read;
  if (!normalized.projects) return 0;
  const desired = {
    websites: normalized.websites.map((e) => e.site),
    policy: normalized.policy,
    projects: normalized.projects.map((e) => e.project),
  };
  const result = plan(desired, input.live, { configFile: input.file, configDigest: "" });
  return result.changes.filter((change) => change.kind === "project").length;
}

/**
 * Values the API took as free text that a config refuses (`10.0.0.1 # office` in exclude_ips, API-NOTES §2.4):
 * the account's data, to correct where it was typed, not a fault of the edit.
 */
const ACCOUNT_VALUES = new Set(["exclude-ips.invalid", "domain.invalid"]);

function invalidBecause(d: Diagnostic): string {
  if (ACCOUNT_VALUES.has(d.code)) {
    return `the account holds a value a config cannot: ${d.message}; correct it in phpAnalytics, then run adopt again`;
  }
  return `the updated file would be invalid (a bug in sitesync, please report it): ${d.message}`;
}

/** Checks the new text as `plan` will read it: valid, and planning no website change against the account. */
export function settle(
  input: SettleInput,
  text: string,
  reread: Reread,
  before: ReadConfig,
): { projectChanges: number } | { diagnostics: Diagnostic[] } {
  // Unchanged text reads as it did: only an edited file is parsed again, to check it (DESIGN §8, scale).
  const after = text === input.source ? before : reread(text);
  if ("diagnostics" in after) {
    const diagnostics = after.diagnostics.map((d) => ({ ...d, code: "update.invalid", message: invalidBecause(d) }));
    return { diagnostics };
  }
  const { normalized } = after;
  const desired = {
    websites: normalized.websites.map((e) => e.site),
    policy: normalized.policy,
    ...(normalized.projects ? { projects: normalized.projects.map((e) => e.project) } : {}),
  };
  const result = plan(desired, input.live, { configFile: input.file, configDigest: "" });
  const remaining = result.changes.filter((change) => change.kind === "website");
  if (remaining.length === 0) return { projectChanges: result.changes.filter((change) => change.kind === "project").length };
  return { diagnostics: unsettled(input.file, before, remaining) };
}

/** Each website change the edited file still plans, at its entry: the file cannot say what the account holds. */
function unsettled(file: string, before: ReadConfig, remaining: ReturnType<typeof plan>["changes"]): Diagnostic[] {
  const where = new Map(before.normalized.websites.map((e) => [e.site.domain, e.site.source]));
  return remaining.map((change): Diagnostic => {
    const at = change.kind === "website" ? where.get(change.domain) : undefined;
    const fields = change.action === "update" ? ` (${change.fields.map((f) => f.field).join(", ")})` : "";
    return {
      file,
      line: at?.line ?? 1,
      column: at?.column ?? 1,
      code: "update.unsettled",
      path: "",
      message: `${change.kind === "website" ? change.domain : ""}: the file cannot say what the account holds; the plan would still ${change.action} this website${fields}. Update this entry by hand`,
      severity: "error",
    };
  });
}
