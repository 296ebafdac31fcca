/**
 * The environment for validating a config without secrets (a pull request from a fork). GitHub gives such
 * runs no secrets, and `env: X: ${{ secrets.X }}` then reads as an empty string, so a config with
 * `password: ${STATS_PASSWORD}` would fail on a value that the real run has. Each variable the file
 * references without a default and that is unset or empty reads as a stand-in instead, and is reported.
 */
import { type Env, references } from "../config/interpolate.ts";

export interface OfflineEnv {
  env: Env;
  /** Variables that read as a stand-in, sorted. */
  standIns: string[];
}

/**
 * Returns `env` with a stand-in for every variable of `source` that is referenced without a default and is
 * unset or empty. The stand-in is a valid password and a valid domain (`stats-password.offline.invalid`),
 * distinct per variable so that two stand-in domains never read as duplicates.
 */
export function offlineEnv(source: string, env: Env): OfflineEnv {
  // A reference with a default needs no stand-in: the default is what the real run reads too.
  const names = new Set(references(source).flatMap((ref) => (ref.hasDefault ? [] : [ref.name])));
  const missing = [...names].filter((name) => !env[name]).sort();
  const standIn = Object.fromEntries(missing.map((name) => [name, `${label(name)}.offline.invalid`]));
  return { env: { ...env, ...standIn }, standIns: missing };
}

/** A DNS label from a variable name: `_STATS_PASSWORD` → `stats-password`. */
function label(name: string): string {
  return (
    name
      .toLowerCase()
      .replaceAll("_", "-")
      .replace(/^-+|-+$/g, "") || "value"
  );
}
