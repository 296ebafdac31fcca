/**
 * `sitesync adopt FILE` (formerly `export --update FILE`, DESIGN §7): accepts the live account into an existing
 * config by editing its text, so that the file plans to no website changes and every line without drift stays
 * byte for byte as it was. Pure: the file's text and the live state in, the new text and its diff out.
 */
import { createTwoFilesPatch } from "diff";
import { isMap, isScalar, isSeq, type YAMLMap, type YAMLSeq } from "yaml";
import type { Env } from "../config/interpolate.ts";
import { keyName } from "../config/locate.ts";
import type { WebsiteEntry } from "../config/normalize.ts";
import type { Diagnostic } from "../errors.ts";
import { firstMatch } from "../model/glob.ts";
import { managedCopies } from "../model/managed-copy.ts";
import type { LiveProject } from "../model/project.ts";
import { type DesiredWebsite, type LiveWebsite, normalizeDomain } from "../model/website.ts";
import { WRITE_ONLY_FIELDS } from "../model/website-fields.ts";
import { updateFields } from "../plan/diff-website.ts";
import { plan } from "../plan/plan.ts";
import { addEntries, appendList, removeEntry } from "./update/_entries.ts";
import { type AdoptedField, adoptFields } from "./update/_fields.ts";
import { type ReadConfig, readConfig } from "./update/_read.ts";
import { detectStyle } from "./update/_style.ts";
import { Edits, SourceText } from "./update/_text.ts";
import { createUpdateContext, type UpdateContext } from "./update/_update-context.ts";

export interface UpdateInput {
  /** The config's path: names it in diagnostics and in the diff's header. */
  file: string;
  /** The config's text. */
  source: string;
  live: { websites: LiveWebsite[]; projects?: LiveProject[] };
  /** `--add-unlisted`: add live websites the file does not list even without `policy.prune: true`. */
  addUnlisted?: boolean;
  /** Values for `${VAR}` in compared fields; unset variables of write-only fields need none. Default: none. */
  env?: Env;
  /**
   * `source` as the run already loaded it, when no value holds a `${VAR}` (then the environment plays no part
   * in what it reads): saves parsing the file a second time (DESIGN §8, scale). Read from `source` when left out.
   */
  read?: ReadConfig;
  /**
   * Reads an edited text of this file, to check it: an included file is read as one, under the root's
   * defaults (DESIGN §2 "Many files, many accounts"). `readConfig` of the file alone when left out.
   */
  reread?: (text: string) => ReadConfig | { diagnostics: Diagnostic[] };
  /** A file without `websites:` gets one at its end for the websites it adds (a root of `include:` only). */
  createList?: boolean;
}

export interface UpdateSummary {
  /** Websites whose drifted fields were rewritten, with those fields. */
  updated: { domain: string; fields: AdoptedField[] }[];
  /** Live websites added to the file. */
  added: string[];
  /** Entries removed because their website is gone from the account. */
  removed: string[];
  /** Tombstones (`state: absent`) of websites that exist again in the account, turned back into entries. */
  restored: string[];
  /** Live websites the file does not list and that were not added (no prune, no `addUnlisted`). */
  unmanaged: string[];
  /** Project changes the plan still holds: projects are never adopted, they stay as they are. */
  projectChanges: number;
}

export type UpdateResult = { ok: true; text: string; diff: string; summary: UpdateSummary } | { ok: false; diagnostics: Diagnostic[] };

/**
 * Rewrites the drifted fields of listed websites to their live values (on the entry's own line, or as a new
 * line where the entry inherits the field), removes entries of websites gone from the account, and adds
 * unlisted live websites where the file claims the whole account. Anything it cannot change safely (a value
 * from `${VAR}`, an anchor other entries use) is refused with its line, and nothing is changed.
 */
export function updateConfig(input: UpdateInput): UpdateResult {
  const env = input.env ?? {};
  const read = input.read ?? readConfig(input.file, input.source, env);
  if ("diagnostics" in read) return { ok: false, diagnostics: read.diagnostics };
  const source = new SourceText(input.source);
  const edits = new Edits(source);
  const doc = read.view.doc;
  const style = detectStyle(doc, source);
  const ctx = createUpdateContext({ file: input.file, source, doc, edits, style }, read.locate);
  const summary = adopt(ctx, read, input);
  if (ctx.diagnostics.length > 0) return { ok: false, diagnostics: ctx.diagnostics };
  const text = edits.empty ? input.source : edits.apply();
  const reread = input.reread ?? ((edited: string) => readConfig(input.file, edited, env));
  const settled = (text !== input.source && settleEdited(input, reread, ctx, read, summary)) || settle(input, text, reread, read);
  if ("diagnostics" in settled) return { ok: false, diagnostics: settled.diagnostics };
  summary.projectChanges = settled.projectChanges;
  const diff =
    text === input.source ? "" : createTwoFilesPatch(input.file, input.file, input.source, text, undefined, undefined, { context: 3 });
  return { ok: true, text, diff, summary };
}

function adopt(ctx: UpdateContext, read: ReadConfig, input: UpdateInput): UpdateSummary {
  const { normalized } = read;
  const summary: UpdateSummary = { updated: [], added: [], removed: [], restored: [], unmanaged: [], projectChanges: 0 };
  const ignored = (domain: string) => firstMatch(normalized.policy.ignore, domain) !== undefined;
  const live = liveByDomain(input.live.websites);
  const websites = ctx.doc.get("websites", true);
  const list = isSeq(websites) ? websites : undefined;
  const gone = list ? adoptListed(ctx, read, list, live, ignored, summary) : [];
  const listed = new Set(normalized.websites.map((entry) => entry.site.domain));
  const unlisted = [...live].filter(([domain]) => !listed.has(domain) && !ignored(domain)).map(([, site]) => site);
  const adding = normalized.policy.prune || input.addUnlisted === true;
  (adding ? summary.added : summary.unmanaged).push(...unlisted.map((site) => normalizeDomain(site.domain)).sort());
  if (!list) {
    if (adding && unlisted.length > 0 && input.createList === true && !ctx.doc.has("websites")) appendList(ctx, unlisted);
    else if (adding && unlisted.length > 0)
      ctx.refuse([], "update.no-websites", 'the file has no websites list to add the account\'s websites to; add "websites: []"');
    return summary;
  }
  if (adding) addEntries(ctx, list, unlisted);
  if (gone.length > 0 && gone.length === list.items.length && !(adding && unlisted.length > 0)) emptyList(ctx, list);
  else for (const index of gone) removeEntry(ctx, list, index);
  return summary;
}

/** Adopts the live state of every listed website; returns the indexes of entries whose website is gone. */
function adoptListed(
  ctx: UpdateContext,
  read: ReadConfig,
  list: YAMLSeq,
  live: ReadonlyMap<string, LiveWebsite>,
  ignored: (domain: string) => boolean,
  summary: UpdateSummary,
): number[] {
  const gone: number[] = [];
  for (const entry of read.normalized.websites) {
    const index = entry.path[1] as number;
    const item = list.items[index];
    const domainNode = isMap(item) ? item.get("domain", true) : undefined;
    if (isScalar(domainNode) && ctx.hasVariable(domainNode)) {
      const message =
        "the domain comes from a ${VAR} reference, so which website this entry is depends on the environment; write the domain itself";
      ctx.refuse([...entry.path, "domain"], "update.variable", message);
      continue;
    }
    const { domain } = entry.site;
    const site = live.get(domain);
    if (ignored(domain)) continue;
    if (entry.site.state === "absent") {
      if (site && isMap(item)) restore(ctx, item, entry, read.normalized.defaults, site, summary);
    } else if (!site) {
      gone.push(index);
      summary.removed.push(domain);
    } else if (isMap(item)) {
      const fields = drifted(entry.site, site);
      adoptFields(ctx, item, entry.path, fields, site);
      if (fields.length > 0) summary.updated.push({ domain, fields });
    } else if (drifted(entry.site, site).length > 0) {
      ctx.refuse(entry.path, "update.entry", "this entry is not written as a mapping (an alias?); write it out so that it can be updated");
    }
  }
  return gone;
}

/** Every listed website is gone: `websites: []` keeps the file valid (the schema requires the key). */
function emptyList(ctx: UpdateContext, list: YAMLSeq): void {
  const key = isMap(ctx.doc.contents) ? ctx.doc.contents.items.find((pair) => pair.value === list)?.key : undefined;
  const keyEnd = (key as { range?: number[] } | undefined)?.range?.[1];
  const end = list.range?.[1];
  if (keyEnd === undefined || end === undefined) {
    ctx.refuse(["websites"], "update.flow-list", 'cannot empty this websites list; write it as "websites: []"');
    return;
  }
  const afterLast = list.flow ? end : ctx.source.start(ctx.source.lineOf(end - 1) + 1);
  ctx.edits.replace(keyEnd, afterLast, list.flow ? ": []" : `: []${ctx.source.eol}`);
}

/** The compared fields that differ, as `plan` compares them (write-only fields never are). */
function drifted(desired: DesiredWebsite, live: LiveWebsite): AdoptedField[] {
  const writeOnly: readonly string[] = WRITE_ONLY_FIELDS;
  return updateFields(desired, live, { sync: false })
    .fields.map((change) => change.field)
    .filter((field): field is AdoptedField => !writeOnly.includes(field));
}

/** A tombstone whose website exists again: drop `state: absent`, and write what differs from `defaults`. */
function restore(
  ctx: UpdateContext,
  item: YAMLMap,
  entry: WebsiteEntry,
  defaults: ReadConfig["normalized"]["defaults"],
  site: LiveWebsite,
  summary: UpdateSummary,
): void {
  const state = item.items.find((pair) => keyName(pair.key) === "state");
  const [keyStart] = (state?.key as { range?: number[] } | undefined)?.range ?? [];
  const valueEnd = (state?.value as { range?: number[] } | undefined)?.range?.[1];
  const line = keyStart === undefined ? undefined : ctx.source.lineOf(keyStart);
  if (item.flow || line === undefined || valueEnd === undefined || ctx.source.lineOf(valueEnd - 1) !== line) {
    ctx.refuse(
      [...entry.path, "state"],
      "update.tombstone",
      "this website exists again in the account; write state: absent on its own line, or remove the entry",
    );
    return;
  }
  ctx.edits.deleteLines(line, line);
  const { password: _password, ...inherited } = defaults;
  const fields = drifted({ domain: entry.site.domain, state: "present", ...inherited }, site);
  adoptFields(ctx, item, entry.path, fields, site);
  summary.restored.push(entry.site.domain);
}

/** Live websites by normalized domain: where two normalize alike, the copy `plan` manages (model/managed-copy.ts). */
function liveByDomain(websites: readonly LiveWebsite[]): Map<string, LiveWebsite> {
  return new Map([...managedCopies(websites).byDomain].map(([domain, copy]) => [domain, copy.site]));
}

/**
 * `settle`'s check on the edited entries alone (DESIGN §8, scale: parsing the whole file again was half the
 * time of `adopt`). Every other entry is byte for byte one the first read validated and found without drift,
 * so the file with only the edited entries left in, read and planned against their live websites, checks the
 * same. Only in the plain case: a block list whose entries each start on their `- ` line, no anchor or alias
 * anywhere, nothing added, removed or restored. Otherwise, or on any problem, undefined: `settle` then checks
 * the whole file (and words the diagnostics at the file's own lines).
 */
function settleEdited(
  input: UpdateInput,
  reread: NonNullable<UpdateInput["reread"]>,
  { edits, source, anchored }: UpdateContext,
  before: ReadConfig,
  summary: UpdateSummary,
): { projectChanges: number } | undefined {
  if (summary.added.length > 0 || summary.removed.length > 0 || summary.restored.length > 0) return undefined;
  const list = before.view.doc.get("websites", true);
  if (!isSeq(list) || list.flow || list.items.length === 0 || anchored) return undefined;
  const starts: number[] = [];
  for (const item of list.items) {
    const at = isMap(item) ? item.range?.[0] : undefined;
    if (at === undefined) return undefined;
    const line = source.lineOf(at);
    if (!source.content(line).trimStart().startsWith("- ")) return undefined;
    starts.push(source.start(line));
  }
  // The last entry stays whatever it holds: what follows it (comments, other keys) is not cut.
  const untouched: [number, number][] = [];
  for (let i = 0; i + 1 < starts.length; i++) {
    const [start, end] = [starts[i]!, starts[i + 1]!];
    if (!edits.touches(start, end)) untouched.push([start, end]);
  }
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
function projectChanges(read: ReadConfig, input: UpdateInput): number {
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

/** Checks the new text as `plan` will read it: valid, and planning no website change against the account. */
function settle(
  input: UpdateInput,
  text: string,
  reread: NonNullable<UpdateInput["reread"]>,
  before: ReadConfig,
): { projectChanges: number } | { diagnostics: Diagnostic[] } {
  // Unchanged text reads as it did: only an edited file is parsed again, to check it (DESIGN §8, scale).
  const after = text === input.source ? before : reread(text);
  if ("diagnostics" in after) {
    const diagnostics = after.diagnostics.map((d) => ({
      ...d,
      code: "update.invalid",
      message: `the updated file would be invalid (a bug in sitesync, please report it): ${d.message}`,
    }));
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
  const where = new Map(before.normalized.websites.map((e) => [e.site.domain, e.site.source]));
  const diagnostics = remaining.map((change): Diagnostic => {
    const at = change.kind === "website" ? where.get(change.domain) : undefined;
    const fields = change.action === "update" ? ` (${change.fields.map((f) => f.field).join(", ")})` : "";
    return {
      file: input.file,
      line: at?.line ?? 1,
      column: at?.column ?? 1,
      code: "update.unsettled",
      path: "",
      message: `${change.kind === "website" ? change.domain : ""}: the file cannot say what the account holds; the plan would still ${change.action} this website${fields}. Update this entry by hand`,
      severity: "error",
    };
  });
  return { diagnostics };
}
