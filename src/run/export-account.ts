/**
 * `export` and `export --update` as steps of the one orchestrator (issue 16): the live account read through
 * the run's client, as a new config file or accepted into an existing one. The adapter writes the result.
 */

import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { updateConfig } from "../adopt/update-config.ts";
import { updateFiles } from "../adopt/update-files.ts";
import type { Client } from "../api/types.ts";
import { exportConfig } from "../config/export-config.ts";
import { type LoadedFile, loadFiles } from "../config/load.ts";
import { readConfigBytes } from "../config/read-bounded.ts";
import type { Config, ConfigAccount } from "../config/types.ts";
import { ConfigError, UsageError } from "../errors.ts";
import { agree, plural } from "../model/plural.ts";
import { clientFor } from "./client-for.ts";
import { readLive } from "./read-live.ts";
import { runAccounts, selectedAccounts } from "./run-accounts.ts";
import type { ConfigUpdate, Outcome, RunHooks, RunRequest } from "./types.ts";

/**
 * The config keys whose `${VAR}` must be set for `export --update`: it reads the account the file points at
 * (the root's, or each of its `accounts:`).
 */
const URL_KEY = /^(accounts\..+\.)?(websites_url|projects_url)$/;

/** Where an exported file's modeline points when the adapter names no schema file. */
const DEFAULT_SCHEMA = "./schemas/sitesync.schema.json";

/** `export`: the live websites (and projects, when asked) as a config file. */
export async function exportAccount(request: RunRequest, hooks: RunHooks, outcome: Outcome): Promise<void> {
  const settings = request.settings?.export ?? {};
  const client = clientFor(request, undefined, hooks);
  const live = await readLive(client, { projects: settings.projects ? [] : undefined });
  const { yaml } = exportConfig(live, { schemaPath: settings.schemaPath ?? DEFAULT_SCHEMA });
  outcome.exported = { yaml, websites: live.websites.length, ...(live.projects ? { projects: live.projects.length } : {}) };
}

/** Runs one account's step into an Outcome of its own, as a run (run.ts's `runStep`, passed in: it calls this module). */
export type RunStep = (request: RunRequest, step: (outcome: Outcome) => Promise<void>) => Promise<Outcome>;

/**
 * `export --update FILE`: reads the account the file points at (URL precedence as in plan: flags, then the
 * environment, then the file) and edits the file so that it plans to no changes. The file's secrets are not
 * needed, so an unset `${VAR}` does not stop the update, except in the account's address. A config of many
 * files has each entry edited in the file that holds it; one of many accounts, each account as plan runs it.
 */
export async function updateFromAccount(request: RunRequest, hooks: RunHooks, outcome: Outcome, runStep: RunStep): Promise<void> {
  if (typeof request.config !== "string") throw new UsageError("export --update takes the path of the config file to update");
  const file = request.config;
  // Bounded like every config read (DESIGN §12), and read once: the update edits the bytes that were loaded.
  const bytes = readConfigBytes(file);
  const source = typeof bytes === "string" ? undefined : bytes.toString("utf8");
  const unsetEnv = (path: string) => (URL_KEY.test(path) ? "error" : "warning");
  const onSecret = (value: string) => request.redactor.add([value]);
  const { result: loaded, files } = await loadFiles(file, {
    env: request.env,
    unsetEnv,
    onSecret,
    ...(source === undefined ? {} : { source }),
  });
  outcome.warnings = loaded.ok ? loaded.warnings : [];
  if (!loaded.ok) throw new ConfigError(loaded.errors);
  request.redactor.add(loaded.config.secrets);
  outcome.config = loaded.config;
  const into = request.settings?.export?.into ?? [];
  if (loaded.config.includes !== undefined || loaded.config.accounts !== undefined) {
    await updateMany(request, hooks, outcome, { config: loaded.config, files: files ?? [], runStep });
    return;
  }
  for (const path of into) {
    if (!sameFile(path, file))
      throw new UsageError(`--into ${path}: the config is the one file ${file}, where new websites go; leave out --into`);
  }
  const client: Client = clientFor(request, loaded.config, hooks);
  const live = await readLive(client, loaded.config);
  const text = source ?? "";
  const addUnlisted = request.settings?.export?.addUnlisted ?? false;
  // The tree just loaded is the file the update edits, unless a ${VAR} made it depend on this run's environment.
  const tree = files?.[0];
  const read = tree && !tree.interpolated ? { read: tree } : {};
  const result = updateConfig({ file, source: text, live, addUnlisted, env: request.env, ...read });
  outcome.updated = { file, files: [{ file, source: text, result }] };
}

/** The files to write: those whose text changed, none when any file was refused. */
export function filesToWrite(update: ConfigUpdate): { file: string; text: string }[] {
  const written: { file: string; text: string }[] = [];
  for (const { file, source, result } of update.files) {
    if (!result.ok) return [];
    if (result.text !== source) written.push({ file, text: result.text });
  }
  return written;
}

interface Many {
  config: Config;
  /** Every file of the config, root first. */
  files: LoadedFile[];
  runStep: RunStep;
}

/**
 * A config of many files (issue 19 item 1) or of `accounts:`: each account read with its own address and key
 * (run-accounts.ts, as plan runs them), and its files updated together; `--into` names where each account's
 * new websites go, checked before any request.
 */
async function updateMany(request: RunRequest, hooks: RunHooks, outcome: Outcome, many: Many): Promise<void> {
  const { config, files } = many;
  const chosen = config.accounts && selectedAccounts(config.accounts, request.settings?.accounts ?? []);
  const into = (request.settings?.export?.into ?? []).map((path) => ({ path, file: intoFile(path, files, chosen) }));
  if (!chosen) {
    if (into.length > 1) throw new UsageError("--into is given twice: the config is one account, whose new websites go to one file");
    const client = clientFor(request, config, hooks);
    const target = into[0]?.file.file ?? config.file;
    outcome.updated = await updateAccount(request, client, config, { files, into: target, noInto: () => "" });
    return;
  }
  checkInto(into, chosen);
  const root = files[0];
  const one = async (accountRequest: RunRequest, accountHooks: RunHooks, account: ConfigAccount) =>
    many.runStep(accountRequest, async (accountOutcome) => {
      const own = accountRequest.config as Config;
      accountOutcome.config = own;
      const mine = into.find(({ file }) => file.account === account.name)?.file.file;
      const target = mine ?? (root?.account === account.name ? root.file : undefined);
      const noInto = (count: number) => noIntoWords(account, count, into.length > 0);
      const client = clientFor(accountRequest, own, accountHooks);
      const accountFiles = files.filter((file) => file.account === account.name);
      accountOutcome.updated = await updateAccount(accountRequest, client, own, { files: accountFiles, into: target, noInto });
    });
  outcome.accounts = await runAccounts(request, hooks, config, one);
}

/** Before any request: each `--into` is a file of an account the run updates, and names at most one per account. */
function checkInto(into: readonly { path: string; file: LoadedFile }[], chosen: readonly ConfigAccount[]): void {
  for (const { path, file } of into) {
    if (chosen.some((account) => account.name === file.account)) continue;
    const whose =
      file.account === undefined ? "no account's websites (the root has several accounts)" : `websites of account ${file.account}`;
    const accounts = chosen.map((a) => `account ${a.name} (${listFiles(a.files)})`).join(", ");
    throw new UsageError(`--into ${path}: the file holds ${whose}, and this run updates ${accounts}: pass --into one of those files`);
  }
  for (const account of chosen) {
    const mine = into.filter(({ file }) => file.account === account.name);
    if (mine.length > 1) {
      const paths = mine.map(({ path }) => path).join(", ");
      throw new UsageError(`--into names ${mine.length} files of account ${account.name} (${paths}): its new websites go to one file`);
    }
  }
}

/** Why an account's new websites have nowhere to go, and which `--into` to pass. */
function noIntoWords(account: ConfigAccount, count: number, intoGiven: boolean): string {
  const why = intoGiven ? "--into names no file of this account" : "the root file holds no account's websites (it has several accounts)";
  const fix =
    account.files.length > 0
      ? `pass --into one of its files (${listFiles(account.files)})`
      : `include a file that says account: ${account.name}`;
  return `${plural(count, "live website")} of account ${account.name} ${agree(count, "is", "are")} listed in no file, and ${why}: ${fix}`;
}

/** One account's files updated against its live state. */
async function updateAccount(
  request: RunRequest,
  client: Client,
  config: Config,
  where: { files: LoadedFile[]; into: string | undefined; noInto: (count: number) => string },
): Promise<ConfigUpdate> {
  const live = await readLive(client, config);
  const addUnlisted = request.settings?.export?.addUnlisted ?? false;
  const { files, unmanaged, projectChanges } = updateFiles({
    ...where,
    live,
    policy: config.policy,
    projects: config.projects,
    addUnlisted,
    env: request.env,
  });
  return { file: config.file, files, many: { unmanaged, projectChanges, target: client.target } };
}

/**
 * The file of the config that `--into PATH` names (relative to the working directory), or a UsageError
 * naming the files that may take the new websites (of the accounts the run updates, `chosen`, when the root
 * has several) and how to start a file of its own.
 */
function intoFile(path: string, files: readonly LoadedFile[], chosen: readonly ConfigAccount[] | undefined): LoadedFile {
  const found = files.find((file) => sameFile(path, file.file));
  if (found) return found;
  const root = files[0]?.file ?? path;
  const takers = chosen ? files.filter((file) => chosen.some((account) => account.name === file.account)) : files;
  const names = chosen?.map((account) => account.name) ?? [];
  const whose = names.length === 0 ? "new websites" : `new websites of ${names.length === 1 ? "account" : "accounts"} ${names.join(", ")}`;
  const where =
    takers.length === 0
      ? `no file holds ${whose} yet`
      : `${whose} go to ${takers.length === 1 ? "" : "one of "}${listFiles(takers.map((file) => file.file))}`;
  const exists = existsSync(path);
  const problem = exists ? `not a file of this config (${root} does not include it)` : "no such file";
  const account =
    names.length === 0 ? "" : names.length === 1 ? `"account: ${names[0]}" and ` : `"account: NAME" (one of ${names.join(", ")}) and `;
  const globs = includeGlobs(files[0]);
  const at =
    globs.length > 0 ? `at a path ${root}'s include: globs match (${globs.join(", ")})` : `and add an include: glob for it to ${root}`;
  throw new UsageError(
    `--into ${path}: ${problem}; ${where}. To start a client file, create ${exists ? "one" : "it"} with ${account}"websites: []" ${at}`,
  );
}

/** The root file's `include:` globs, as written. */
function includeGlobs(root: LoadedFile | undefined): string[] {
  const include: unknown = root?.view.doc.toJS()?.include;
  return Array.isArray(include) ? include.filter((glob): glob is string => typeof glob === "string") : [];
}

function sameFile(a: string, b: string): boolean {
  return resolve(a) === resolve(b);
}

/** At most 10 files named, then how many more. */
function listFiles(files: readonly string[]): string {
  const shown = files.slice(0, 10).join(", ");
  return files.length > 10 ? `${shown} and ${files.length - 10} more` : shown;
}
