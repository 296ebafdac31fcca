/**
 * `export`: the live account read through the run's client, as a new config file (DESIGN §7): written to
 * `exportFile` (never over an existing file without `force`), or kept in the Outcome for stdout.
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_KEY_ENVS } from "../config/accounts.ts";
import { exportConfig, schemaReference } from "../config/export-config.ts";
import { ExportFileError } from "../errors.ts";
import { checkKeys, keysOf } from "./account-keys.ts";
import { checkAccountUrls, clientFor } from "./client-for.ts";
import { readLive } from "./read-live.ts";
import { schemaLocation } from "./schema-location.ts";
import type { AccountSpec, RunScope } from "./scope.ts";
import type { AccountRun, RunSecrets, RunSettings } from "./types.ts";
import { writeNewOutput, writeOutput } from "./write-file.ts";

const SCHEMA = fileURLToPath(new URL("../../schemas/sitesync.schema.json", import.meta.url));

/**
 * The one account `export` reads: the addresses of the settings and the environment (the projects' too with
 * `--projects`), the default keys; all checked before its first request.
 */
export function exportSpec(scope: RunScope, secrets: RunSecrets = {}): AccountSpec {
  const readsProjects = scope.settings.projects ?? false;
  const addresses = checkAccountUrls(scope.settings, scope.env, [{ name: "", config: undefined, readsProjects }]);
  const keys = { ...DEFAULT_KEY_ENVS };
  const spec = { name: "", config: undefined, address: addresses.get("")?.websites ?? "", keys, secrets: keysOf(secrets, scope.env, keys) };
  scope.redactor.add([spec.secrets.apiKey, spec.secrets.projectsApiKey]);
  checkKeys([{ ...spec, readsProjects }]);
  return spec;
}

/** Before any request: a hand-written config is never overwritten by accident. */
export function checkExportFile({ exportFile, force }: RunSettings): void {
  if (exportFile !== undefined && !force && existsSync(exportFile)) throw new ExportFileError(exportFile);
}

export async function exportStep(scope: RunScope, spec: AccountSpec, run: AccountRun): Promise<void> {
  const { exportFile, force, projects } = scope.settings;
  const client = clientFor(scope, spec);
  run.target = client.target;
  const live = await readLive(client, { projects: projects ? [] : undefined });
  const folder = exportFile === undefined ? process.cwd() : dirname(resolve(exportFile));
  const schemaPath = schemaReference(folder, schemaLocation(folder, SCHEMA));
  const holdsSecret = (text: string) => scope.redactor.redact(text) !== text;
  const { yaml, leftOut } = exportConfig(live, { schemaPath, holdsSecret });
  const websites = live.websites.length - leftOut.filter((item) => item.field === undefined).length;
  run.exported = { yaml, websites, leftOut, ...(live.projects ? { projects: live.projects.length } : {}) };
  if (exportFile === undefined) return;
  // The file is an output like stdout: a live name that echoes a key must not carry it there (DESIGN §12).
  const text = scope.redactor.redact(yaml);
  if (force) writeOutput(exportFile, text);
  else if (!writeNewOutput(exportFile, text)) throw new ExportFileError(exportFile);
  run.exported.file = exportFile;
}
