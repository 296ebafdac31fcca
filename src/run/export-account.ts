/**
 * `export` and `export --update` as steps of the one orchestrator (issue 16): the live account read through
 * the run's client, as a new config file or accepted into an existing one. The adapter writes the result.
 */

import { updateConfig } from "../adopt/update-config.ts";
import type { Client } from "../api/types.ts";
import { exportConfig } from "../config/export-config.ts";
import { loadDocument, readConfigBytes } from "../config/load.ts";
import { ConfigError, UsageError } from "../errors.ts";
import { clientFor } from "./client-for.ts";
import { readLive } from "./read-live.ts";
import type { Outcome, RunHooks, RunRequest } from "./types.ts";

/** The config keys whose `${VAR}` must be set for `export --update`: it reads the account the file points at. */
const URL_KEYS: ReadonlySet<string> = new Set(["websites_url", "projects_url"]);

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

/**
 * `export --update FILE`: reads the account the file points at (URL precedence as in plan: flags, then the
 * environment, then the file) and edits the file so that it plans to no changes. The file's secrets are not
 * needed, so an unset `${VAR}` does not stop the update, except in the account's address.
 */
export async function updateFromAccount(request: RunRequest, hooks: RunHooks, outcome: Outcome): Promise<void> {
  if (typeof request.config !== "string") throw new UsageError("export --update takes the path of the config file to update");
  const file = request.config;
  // Bounded like every config read (DESIGN §12), and read once: the update edits the bytes that were loaded.
  const bytes = readConfigBytes(file);
  const source = typeof bytes === "string" ? undefined : bytes.toString("utf8");
  const unsetEnv = (path: string) => (URL_KEYS.has(path) ? "error" : "warning");
  const onSecret = (value: string) => request.redactor.add([value]);
  const { result: loaded, tree } = loadDocument(file, {
    env: request.env,
    unsetEnv,
    onSecret,
    ...(source === undefined ? {} : { source }),
  });
  outcome.warnings = loaded.ok ? loaded.warnings : [];
  if (!loaded.ok) throw new ConfigError(loaded.errors);
  request.redactor.add(loaded.config.secrets);
  outcome.config = loaded.config;
  const client: Client = clientFor(request, loaded.config, hooks);
  const live = await readLive(client, loaded.config);
  const text = source ?? "";
  const addUnlisted = request.settings?.export?.addUnlisted ?? false;
  // The tree just loaded is the file the update edits, unless a ${VAR} made it depend on this run's environment.
  // A config of many files goes through readConfig, which refuses it (issue 19: it would edit the root alone).
  const read = tree && !tree.interpolated && loaded.config.includes === undefined ? { read: tree } : {};
  outcome.updated = { file, source: text, result: updateConfig({ file, source: text, live, addUnlisted, env: request.env, ...read }) };
}
