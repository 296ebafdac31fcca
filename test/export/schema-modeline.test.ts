/**
 * `sitesync export` writes a `$schema` modeline that resolves for a teammate who clones the repository, or
 * none (DESIGN §2, §7): the real CLI, run from this checkout, which lies outside the repositories below as a
 * global install or another project's node_modules would.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync, workdir } from "../helpers/cli.ts";
import { git } from "../helpers/git.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: 0, seed: 3 });
});
afterAll(() => sandbox.close());

/** A git repository with an `infra/` folder to export into. */
function repository(): string {
  const dir = workdir();
  git(dir, "init", "-q");
  mkdirSync(join(dir, "infra"));
  return dir;
}

async function exportInto(dir: string): Promise<string> {
  const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
  const result = await sitesync(["export", "--out", "infra/sitesync.yaml"], { env, cwd: dir });
  expect(result.code, result.stderr).toBe(0);
  return readFileSync(join(dir, "infra", "sitesync.yaml"), "utf8");
}

describe("export's $schema modeline", () => {
  it("points at the copy of sitesync installed in the repository, by a path that resolves from the file", async () => {
    const dir = repository();
    const installed = join(dir, "node_modules", "sitesync", "schemas");
    mkdirSync(installed, { recursive: true });
    writeFileSync(join(installed, "sitesync.schema.json"), readFileSync(new URL("../../schemas/sitesync.schema.json", import.meta.url)));
    const text = await exportInto(dir);
    const schema = /^# yaml-language-server: \$schema=(\S+)$/m.exec(text)?.[1];
    expect(schema).toBe("../node_modules/sitesync/schemas/sitesync.schema.json");
    expect(existsSync(resolve(dir, "infra", schema!))).toBe(true);
  });

  it("writes none, and says why, when the running sitesync is outside the repository", async () => {
    const dir = repository();
    const text = await exportInto(dir);
    expect(text).not.toContain("$schema=");
    expect(text.split("\n").slice(0, 2)).toEqual([
      "# No $schema modeline: this copy of sitesync is installed outside the repository, where a teammate's clone",
      "# would not find its schema. With sitesync installed in the repository (node_modules/sitesync), export writes one.",
    ]);
    const valid = await sitesync(["validate", "-c", "infra/sitesync.yaml"], { cwd: dir });
    expect(valid.code, valid.stderr).toBe(0);
  });
});
