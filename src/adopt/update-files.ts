/**
 * `sitesync adopt` on a config of many files (DESIGN §2 "Many files, many accounts"): each listed website is edited in the file that holds it, by the one-file updater, and live
 * websites that no file lists go to one file (`--into`, else the root). Pure: one account's files as the
 * loader read them and its live state in, each file's new text and diff out.
 */
import type { Env } from "../config/interpolate.ts";
import type { LoadedFile } from "../config/load.ts";
import { AdoptError, type Diagnostic } from "../errors.ts";
import { firstMatch } from "../model/glob.ts";
import type { Policy } from "../model/policy.ts";
import type { DesiredProject, LiveProject } from "../model/project.ts";
import { type LiveWebsite, normalizeDomain } from "../model/website.ts";
import { plan } from "../plan/plan.ts";
import { type ReadConfig, withPlaceholders } from "./update/_read.ts";
import { type UpdateResult, updateConfig } from "./update-config.ts";

export interface FilesInput {
  /** The account's files, in the order the loader read them. */
  files: readonly LoadedFile[];
  /** The file (one of `files`) that takes the live websites no file lists; `undefined`: none may. */
  into: string | undefined;
  /** Whose files these are, for the refusal when new websites are to be added and no file may take them. */
  noInto?: { account: string; intoGiven: boolean; files: string[] };
  live: { websites: LiveWebsite[]; projects?: LiveProject[] };
  /** The account's policy (the root's, with the account's keys over it). */
  policy: Policy;
  /** The account's projects as the files list them; `undefined` when they are not managed. */
  projects?: DesiredProject[] | undefined;
  /** `--add-unlisted`: add the live websites no file lists even without `policy.prune: true`. */
  addUnlisted?: boolean;
  env?: Env;
}

/** One file of the config, updated (or refused): the text it was read with, beside the result. */
export interface FileUpdate {
  file: string;
  source: string;
  result: UpdateResult;
}

export interface FilesUpdate {
  /** Every file of the account, in the order read; a file refused refuses the account's update as a whole. */
  files: FileUpdate[];
  /** Live websites no file lists and none was added to (no prune, no `--add-unlisted`). */
  unmanaged: string[];
  /** Project changes the plan still holds: projects are never adopted. */
  projectChanges: number;
}

/**
 * Updates each file for the websites it lists: the live state each file is given is only its own websites
 * (and, for the `into` file, the unlisted ones), so that the one-file updater neither adds another file's
 * websites nor, with prune, removes them; its check that the edited file plans to no changes then holds
 * for the account as a whole, since every website is listed in one file only.
 * Throws an AdoptError when websites are to be added and no file may take them.
 */
export function updateFiles(input: FilesInput): FilesUpdate {
  const env = input.env ?? {};
  const { policy } = input;
  const again = { envFor: (data: unknown) => withPlaceholders(data, env) };
  const reads = input.files.map((file) => ({ file, read: forAccount(readOf(file, again), policy) }));
  const { ofFile, unlisted, unlistedSites } = sortLive(input, reads);
  const adding = (policy.prune || input.addUnlisted === true) && unlisted.size > 0;
  if (adding && input.into === undefined) {
    const whose = input.noInto ?? { account: "", intoGiven: false, files: [] };
    throw new AdoptError({ code: "no-into", count: unlisted.size, ...whose });
  }
  const files = reads.map(({ file, read }): FileUpdate => {
    if ("diagnostics" in read) return { file: file.file, source: file.text, result: { ok: false, diagnostics: read.diagnostics } };
    const into = adding && file.file === input.into;
    const websites = [...(ofFile.get(file.file) ?? []), ...(into ? unlistedSites : [])];
    const result = updateConfig({
      file: file.file,
      source: file.text,
      live: { websites },
      addUnlisted: into,
      env,
      read,
      reread: (text) => forAccount(file.reread(text, again), policy),
      createList: into,
    });
    return { file: file.file, source: file.text, result };
  });
  return { files, unmanaged: adding ? [] : [...unlisted].sort(), projectChanges: projectChanges(input, reads) };
}

/**
 * Each live website sorted once to the file that lists it, or to the unlisted ones (with their normalized
 * domains), ignored ones left out (not per file: a fleet of 2,000 files over 100,000 websites would normalize every
 * domain 2,000 times).
 */
function sortLive(
  input: FilesInput,
  reads: readonly { file: LoadedFile; read: ReadConfig | { diagnostics: Diagnostic[] } }[],
): { ofFile: Map<string, LiveWebsite[]>; unlisted: Set<string>; unlistedSites: LiveWebsite[] } {
  const listed = new Map<string, string>();
  for (const { file, read } of reads) for (const entry of entriesOf(file, read)) listed.set(entry.site.domain, file.file);
  const ofFile = new Map<string, LiveWebsite[]>();
  const unlisted = new Set<string>();
  const unlistedSites: LiveWebsite[] = [];
  for (const site of input.live.websites) {
    const domain = normalizeDomain(site.domain);
    const holder = listed.get(domain);
    if (holder !== undefined) {
      const sites = ofFile.get(holder);
      if (sites) sites.push(site);
      else ofFile.set(holder, [site]);
    } else if (firstMatch(input.policy.ignore, domain) === undefined) {
      unlisted.add(domain);
      unlistedSites.push(site);
    }
  }
  return { ofFile, unlisted, unlistedSites };
}

/** The file as the update reads it: a file holding a `${VAR}` again, with placeholders for its secrets. */
function readOf(file: LoadedFile, again: Parameters<LoadedFile["reread"]>[1]): ReadConfig | { diagnostics: Diagnostic[] } {
  return file.interpolated ? file.reread(file.text, again) : file;
}

/**
 * The file under the account's policy (`prune` and `ignore` are the account's, not the root's alone), its
 * projects left out: they are the account's, compared once across its files.
 */
function forAccount(read: ReadConfig | { diagnostics: Diagnostic[] }, policy: Policy): ReadConfig | { diagnostics: Diagnostic[] } {
  if ("diagnostics" in read) return read;
  const { projects: _projects, ...normalized } = read.normalized;
  return { ...read, normalized: { ...normalized, policy } };
}

function entriesOf(file: LoadedFile, read: ReadConfig | { diagnostics: Diagnostic[] }) {
  return ("diagnostics" in read ? file : read).normalized.websites;
}

function projectChanges(
  input: FilesInput,
  reads: readonly { file: LoadedFile; read: ReadConfig | { diagnostics: Diagnostic[] } }[],
): number {
  if (input.projects === undefined) return 0;
  const websites = reads.flatMap(({ file, read }) => entriesOf(file, read).map((entry) => entry.site));
  const result = plan({ websites, policy: input.policy, projects: input.projects }, input.live, { configFile: "", configDigest: "" });
  return result.changes.filter((change) => change.kind === "project").length;
}
