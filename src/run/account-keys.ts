/**
 * The keys of an account's run (DESIGN §2 "Many files, many accounts"): an adapter's when it runs the account
 * alone, else the account's variables'. Every key a command will need is checked before the run's first
 * request, like every address (run/client-for.ts).
 */
import { DEFAULT_KEY_ENVS } from "../config/accounts.ts";
import { AccountSelectionError, type UnsetKey } from "../errors.ts";
import type { Env, KeyVariables, RunSecrets } from "./types.ts";

/** The keys an account sends: the adapter's (`given`), else its variables' in `env`. */
export function keysOf(given: RunSecrets, env: Env, keys: KeyVariables): RunSecrets {
  const apiKey = given.apiKey || env[keys.apiKeyEnv] || undefined;
  const projectsApiKey = given.projectsApiKey || env[keys.projectsApiKeyEnv] || undefined;
  return { ...(apiKey ? { apiKey } : {}), ...(projectsApiKey ? { projectsApiKey } : {}) };
}

/**
 * The keys an account's command will send whose variable is unset. The websites key always; the projects key
 * when the command reads projects and the account names a variable of its own for it (`projects_api_key_env`):
 * that says the projects service takes another key, so the websites key is never sent there in its stead.
 * `SITESYNC_PROJECTS_API_KEY`, the default, is optional: without it the websites key serves both (DESIGN §2).
 */
function unsetKeys(spec: { name: string; keys: KeyVariables; secrets: RunSecrets }, readsProjects: boolean): UnsetKey[] {
  const { name: account, keys, secrets } = spec;
  const unset: UnsetKey[] = [];
  if (!secrets.apiKey) unset.push({ account, env: keys.apiKeyEnv, api: "websites" });
  const ownProjectsKey = keys.projectsApiKeyEnv !== DEFAULT_KEY_ENVS.projectsApiKeyEnv;
  if (readsProjects && ownProjectsKey && !secrets.projectsApiKey) unset.push({ account, env: keys.projectsApiKeyEnv, api: "projects" });
  return unset;
}

/** Throws, naming every one, when keys the accounts will send are unset: before the run's first request. */
export function checkKeys(specs: readonly { name: string; keys: KeyVariables; secrets: RunSecrets; readsProjects: boolean }[]): void {
  const unset = specs.flatMap((spec) => unsetKeys(spec, spec.readsProjects));
  if (unset.length > 0) throw new AccountSelectionError({ code: "key-unset", keys: unset });
}
