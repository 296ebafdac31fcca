/**
 * `adopt FILE` (DESIGN §7): each account's live changes accepted into the config in place, every entry in
 * the file that holds it, new websites in the file `--into` names (else the root's `websites:`). The file's
 * secrets are not needed, so an unset `${VAR}` does not stop it, except in an account's address. Each
 * account's files are written together, all checked writable first; one refused file writes none of them.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { updateConfig } from "../adopt/update-config.ts";
import { type FileUpdate, updateFiles } from "../adopt/update-files.ts";
import { type LoadedFile, loadFiles } from "../config/load.ts";
import { readConfigBytes } from "../config/read-bounded.ts";
import type { Config } from "../config/types.ts";
import { AdoptError, ConfigError } from "../errors.ts";
import { clientFor } from "./client-for.ts";
import { readLive } from "./read-live.ts";
import type { AccountStep } from "./run-accounts.ts";
import type { AccountSpec, RunScope } from "./scope.ts";
import type { Adopted, Outcome, RunRequest } from "./types.ts";
import { checkWritable, writeOutput } from "./write-file.ts";

/** The config keys whose `${VAR}` must be set: adopt reads the account the file points at. */
const URL_KEY = /^(accounts\..+\.)?(websites_url|projects_url)$/;

/** The config as adopt edits it: every file's text and tree, as loaded. */
export interface LoadedForAdopt {
  config: Config;
  /** Every file of the config, root first. */
  files: LoadedFile[];
  /** A config of one file: its tree, reused by the one-file updater unless a `${VAR}` made it depend on this run. */
  tree: LoadedFile | undefined;
}

export async function loadForAdopt(request: RunRequest, outcome: Outcome): Promise<LoadedForAdopt> {
  if (typeof request.config !== "string") throw new AdoptError({ code: "not-a-path" });
  const file = request.config;
  // Bounded like every config read (DESIGN §12), and read once: the update edits the bytes that were loaded.
  const bytes = readConfigBytes(file);
  const source = typeof bytes === "string" ? undefined : bytes.toString("utf8");
  const unsetEnv = (path: string) => (URL_KEY.test(path) ? "error" : "warning");
  const onSecret = (value: string) => request.redactor.add([value]);
  const loaded = await loadFiles(file, { env: request.env, unsetEnv, onSecret, ...(source === undefined ? {} : { source }) });
  const { result } = loaded;
  // Its warnings are not shown: the unset variables they name are the secrets adopt never needs.
  outcome.warnings = result.ok ? result.warnings : [];
  if (!result.ok) throw new ConfigError(result.errors);
  request.redactor.add(result.config.secrets);
  outcome.config = result.config;
  const one = result.config.includes === undefined && result.config.accounts === undefined;
  const files = loaded.files ?? [];
  return { config: result.config, files, tree: one ? files[0] : undefined };
}

/**
 * The step of each account, once every `--into` is known to name a file of an account the run adopts into
 * (checked before any request): the account's files updated against its live state, and written.
 */
export function adoptStep(loaded: LoadedForAdopt, specs: readonly AccountSpec[], into: readonly string[]): AccountStep {
  const intoOf = intoFiles(loaded, specs, into);
  return async (scope, spec, run) => {
    const client = clientFor(scope, spec);
    run.target = client.target;
    const live = await readLive(client, spec.config ?? loaded.config);
    const update = adoptInto(scope, spec, loaded, { live, into: intoOf.get(spec.name), intoGiven: into.length > 0 });
    run.adopted = { ...update, written: scope.settings.dryRun ? [] : writeAll(update.files) };
  };
}

type Update = Omit<Adopted, "written">;

function adoptInto(
  scope: RunScope,
  spec: AccountSpec,
  loaded: LoadedForAdopt,
  { live, into, intoGiven }: { live: Awaited<ReturnType<typeof readLive>>; into: string | undefined; intoGiven: boolean },
): Update {
  const addUnlisted = scope.settings.addUnlisted ?? false;
  const [root] = loaded.files;
  if (loaded.tree && root) {
    // A config of one file: its own updater, on the tree just loaded unless a ${VAR} made it this run's.
    const read = loaded.tree.interpolated ? {} : { read: loaded.tree };
    const result = updateConfig({ file: root.file, source: root.text, live, addUnlisted, env: scope.env, ...read });
    const summary = result.ok ? result.summary : undefined;
    return {
      files: [{ file: root.file, source: root.text, result }],
      unmanaged: summary?.unmanaged ?? [],
      projectChanges: summary?.projectChanges ?? 0,
    };
  }
  const config = spec.config ?? loaded.config;
  const files = loaded.files.filter((file) => spec.name === "" || file.account === spec.name);
  return updateFiles({
    files,
    into,
    noInto: { account: spec.name, intoGiven, files: filesOf(loaded.config, spec.name) },
    live,
    policy: config.policy,
    projects: config.projects,
    addUnlisted,
    env: scope.env,
  });
}

/** The files whose text changed, all checked writable before the first is written; none when one was refused. */
function writeAll(files: readonly FileUpdate[]): string[] {
  if (files.some(({ result }) => !result.ok)) return [];
  const writes = files.flatMap(({ file, source, result }) => (result.ok && result.text !== source ? [{ file, text: result.text }] : []));
  for (const { file } of writes) checkWritable(file);
  for (const { file, text } of writes) writeOutput(file, text);
  return writes.map(({ file }) => file);
}

/**
 * Where each account's new websites go: the `--into` file of its own, else the root when the root holds its
 * websites. Every `--into` must be a file of the config, of an account the run adopts into, at most one per
 * account (an AdoptError naming the files that may take them, before any request).
 */
function intoFiles(loaded: LoadedForAdopt, specs: readonly AccountSpec[], into: readonly string[]): Map<string, string | undefined> {
  const { files, tree } = loaded;
  const root = files[0];
  const fleet = specs.some((spec) => spec.name !== "");
  if (tree && root) {
    const other = into.find((path) => !sameFile(path, root.file));
    if (other !== undefined) throw new AdoptError({ code: "into-one-file", path: other, root: root.file });
  }
  const given = into.map((path) => ({ path, file: intoFile(path, loaded, specs) }));
  if (!fleet && into.length > 1) throw new AdoptError({ code: "into-twice" });
  if (fleet) checkInto(given, specs, loaded.config);
  const targets = new Map<string, string | undefined>();
  for (const spec of specs) {
    const mine = given.find(({ file }) => !fleet || file.account === spec.name)?.file.file;
    targets.set(spec.name, mine ?? (!fleet || root?.account === spec.name ? root?.file : undefined));
  }
  return targets;
}

/** Each `--into` is a file of an account the run adopts into, and names at most one per account. */
function checkInto(into: readonly { path: string; file: LoadedFile }[], specs: readonly AccountSpec[], config: Config): void {
  const accounts = specs.map((spec) => ({ name: spec.name, files: filesOf(config, spec.name) }));
  for (const { path, file } of into) {
    if (specs.some((spec) => spec.name === file.account)) continue;
    throw new AdoptError({ code: "into-other-account", path, holder: file.account, accounts });
  }
  for (const spec of specs) {
    const mine = into.filter(({ file }) => file.account === spec.name);
    if (mine.length > 1) throw new AdoptError({ code: "into-many", account: spec.name, paths: mine.map(({ path }) => path) });
  }
}

/** The files that hold an account's entries, as diagnostics name them. */
function filesOf(config: Config, account: string): string[] {
  return config.accounts?.find((a) => a.name === account)?.files ?? [];
}

/** The file of the config that `--into PATH` names (relative to the working directory), or an AdoptError saying which may take new websites. */
function intoFile(path: string, { files }: LoadedForAdopt, specs: readonly AccountSpec[]): LoadedFile {
  const found = files.find((file) => sameFile(path, file.file));
  if (found) return found;
  const named = specs.map((spec) => spec.name).filter((name) => name !== "");
  const takers = named.length === 0 ? files : files.filter((file) => file.account !== undefined && named.includes(file.account));
  throw new AdoptError({
    code: "into-unknown",
    path,
    exists: existsSync(path),
    root: files[0]?.file ?? path,
    takers: takers.map((file) => file.file),
    accounts: named,
    globs: includeGlobs(files[0]),
  });
}

/** The root file's `include:` globs, as written. */
function includeGlobs(root: LoadedFile | undefined): string[] {
  const include: unknown = root?.view.doc.toJS({ maxAliasCount: -1 })?.include;
  return Array.isArray(include) ? include.filter((glob): glob is string => typeof glob === "string") : [];
}

function sameFile(a: string, b: string): boolean {
  return resolve(a) === resolve(b);
}
