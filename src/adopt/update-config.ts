/**
 * `sitesync adopt FILE` (formerly `export --update FILE`, DESIGN §7): accepts the live account into an existing
 * config by editing its text, so that the file plans to no website changes and every line without drift stays
 * byte for byte as it was. Pure: the file's text and the live state in, the new text and its diff out.
 */
import { isSeq } from "yaml";
import type { Env } from "../config/interpolate.ts";
import type { Diagnostic } from "../errors.ts";
import type { LiveProject } from "../model/project.ts";
import { type LiveWebsite, normalizeDomain } from "../model/website.ts";
import { editDiff } from "./update/_diff.ts";
import { documentFor, type EditedDocument } from "./update/_document.ts";
import { addEntries, appendList, removeEntry } from "./update/_entries.ts";
import type { AdoptedField } from "./update/_fields.ts";
import { adoptListed, emptyList } from "./update/_listed.ts";
import { type ReadConfig, readConfig } from "./update/_read.ts";
import { settle, settleEdited } from "./update/_settle.ts";
import { detectStyle } from "./update/_style.ts";
import { Edits, SourceText } from "./update/_text.ts";
import { createUpdateContext, type UpdateContext } from "./update/_update-context.ts";
import { type EntryWork, entryWork } from "./update/_work.ts";

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
 * from `${VAR}`, an anchor other entries use) is refused with its line, and nothing is changed. Only the
 * entries it edits are parsed with positions when it edits them in place (update/_document.ts).
 */
export function updateConfig(input: UpdateInput): UpdateResult {
  const env = input.env ?? {};
  const read = input.read ?? readConfig(input.file, input.source, env);
  if ("diagnostics" in read) return { ok: false, diagnostics: read.diagnostics };
  const source = new SourceText(input.source);
  const edits = new Edits(source);
  const work = entryWork(read, input.live.websites, input.addUnlisted === true);
  const edited = documentFor(read, source, work);
  const style = detectStyle(edited.doc, source, edited.values);
  const ctx = createUpdateContext({ file: input.file, source, doc: edited.doc, edits, style }, read.locate);
  const summary = adopt(ctx, read, input, edited, work);
  if (ctx.diagnostics.length > 0) return { ok: false, diagnostics: ctx.diagnostics };
  const text = edits.empty ? input.source : edits.apply();
  const reread = input.reread ?? ((changed: string) => readConfig(input.file, changed, env));
  const settled =
    (text !== input.source && settleEdited(input, reread, edits, edited.starts, read, summary)) || settle(input, text, reread, read);
  if ("diagnostics" in settled) return { ok: false, diagnostics: settled.diagnostics };
  summary.projectChanges = settled.projectChanges;
  const diff = text === input.source ? "" : editDiff(input.file, source, edits);
  return { ok: true, text, diff, summary };
}

function adopt(ctx: UpdateContext, read: ReadConfig, input: UpdateInput, edited: EditedDocument, work: EntryWork): UpdateSummary {
  const summary: UpdateSummary = { updated: [], added: [], removed: [], restored: [], unmanaged: [], projectChanges: 0 };
  const websites = ctx.doc.get("websites", true);
  const list = isSeq(websites) ? websites : undefined;
  const gone = list ? adoptListed(ctx, read, edited.items, work, summary) : [];
  const { unlisted, adding } = work;
  const named = adding ? summary.added : summary.unmanaged;
  // One by one: a spread of 100,000 arguments overflows the stack.
  for (const domain of unlisted.map((site) => normalizeDomain(site.domain)).sort()) named.push(domain);
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
