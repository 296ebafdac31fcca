/** Config files for the scenarios, written as a user would write them and loaded through `loadConfig`. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { type Config, loadConfig } from "../src/index.ts";

/** What goes under `websites:` and `projects:`, in the file's own (snake_case) keys. */
export interface ConfigBody {
  policy?: Record<string, unknown>;
  websites: Record<string, unknown>[];
  projects?: Record<string, unknown>[];
}

export interface WrittenConfig {
  file: string;
  config: Config;
  /** Removes the temporary folder. */
  remove(): void;
}

/** Writes `sitesync.yaml` into a fresh temporary folder and loads it; a config error is a bug of the bench. */
export async function writeConfig(body: ConfigBody, env: Record<string, string> = {}): Promise<WrittenConfig> {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-bench-"));
  const file = join(dir, "sitesync.yaml");
  writeFileSync(file, stringify({ version: 1, ...body }));
  const result = await loadConfig(file, { env });
  if (!result.ok) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`bench config rejected: ${result.errors.map((e) => e.message).join("; ")}`);
  }
  return { file, config: result.config, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
