import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { liveWebsite as site } from "../../test/helpers/live-website.ts";
import { loadConfig, loadFiles } from "../config/load.ts";
import type { LiveWebsite } from "../model/website.ts";
import { plan } from "../plan/plan.ts";
import { type FilesInput, updateFiles } from "./update-files.ts";

/** A config of many files in a new folder: the root's text, and each included file's, by name. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-update-files-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

async function load(files: Record<string, string>) {
  const dir = folder(files);
  const loaded = await loadFiles(join(dir, "sitesync.yaml"), { env: {} });
  if (!loaded.result.ok || !loaded.files) throw new Error(JSON.stringify(loaded.result));
  return { dir, config: loaded.result.config, files: loaded.files };
}

async function update(files: Record<string, string>, websites: LiveWebsite[], options: Partial<FilesInput> = {}) {
  const { dir, config, files: loaded } = await load(files);
  const into = join(dir, "sitesync.yaml");
  const result = updateFiles({ files: loaded, into, live: { websites }, policy: config.policy, ...options });
  const texts = { ...files };
  for (const file of result.files) {
    if (!file.result.ok) throw new Error(file.result.diagnostics.map((d) => `${d.file}:${d.line} ${d.message}`).join("\n"));
    texts[relative(dir, file.file)] = file.result.text;
  }
  return { result, texts };
}

/** What `sitesync plan` finds with the files: the number of changes. */
async function changesAfter(files: Record<string, string>, websites: LiveWebsite[]): Promise<number> {
  const dir = folder(files);
  const loaded = await loadConfig(join(dir, "sitesync.yaml"), { env: {} });
  if (!loaded.ok) throw new Error(loaded.errors.map((d) => `${d.file}:${d.line} ${d.message}`).join("\n"));
  return plan(loaded.config, { websites }, { configFile: "sitesync.yaml", configDigest: "" }).changes.length;
}

const ROOT = 'version: 1\ndefaults: { email: 1 }\npolicy: { prune: true }\ninclude: ["clients/*.yaml"]\n';

describe("updateFiles", () => {
  it("writes a field an included entry inherits from the root's defaults on that entry, in its own file", async () => {
    const files = { "sitesync.yaml": ROOT, "clients/a.yaml": "websites:\n  - domain: a.com # A\n" };
    const live = [site(1, "a.com", { email: 0 })];
    const { result, texts } = await update(files, live);
    expect(texts["clients/a.yaml"]).toBe("websites:\n  - domain: a.com # A\n    email: false\n");
    expect(texts["sitesync.yaml"]).toBe(ROOT);
    expect(result.files.map((f) => f.result.ok && f.result.summary.updated.length)).toEqual([0, 1]);
    expect(await changesAfter(texts, live)).toBe(0);
  });

  it("with prune, gives the root a websites key for the unlisted ones and removes the gone ones where they are listed", async () => {
    const files = {
      "sitesync.yaml": ROOT,
      "clients/a.yaml": "websites:\n  - domain: a.com\n  - domain: gone.com\n",
      "clients/b.yaml": "websites:\n  - domain: b.com\n",
    };
    const live = [site(1, "a.com", { email: 1 }), site(2, "b.com", { email: 1 }), site(3, "new.com", { email: 1 })];
    const { texts } = await update(files, live);
    expect(texts["clients/a.yaml"]).toBe("websites:\n  - domain: a.com\n");
    expect(texts["clients/b.yaml"]).toBe(files["clients/b.yaml"]);
    const rootAfter = `${ROOT}websites:\n  - domain: new.com\n`;
    expect(texts["sitesync.yaml"]?.slice(0, rootAfter.length)).toBe(rootAfter);
    expect(await changesAfter(texts, live)).toBe(0);
  });

  it("counts unlisted websites as unmanaged without prune, and refuses to add them where no file may take them", async () => {
    const root = ROOT.replace("prune: true", "prune: false");
    const files = { "sitesync.yaml": root, "clients/a.yaml": "websites:\n  - domain: a.com\n" };
    const live = [site(1, "a.com", { email: 1 }), site(2, "new.com")];
    expect((await update(files, live)).result.unmanaged).toEqual(["new.com"]);
    const { config, files: loaded } = await load(files);
    const input = { files: loaded, live: { websites: live }, policy: config.policy, addUnlisted: true };
    const noInto = { account: "eu", intoGiven: false, files: ["clients/a.yaml"] };
    expect(() => updateFiles({ ...input, into: undefined, noInto })).toThrow(
      expect.objectContaining({ problem: { code: "no-into", count: 1, ...noInto } }),
    );
  });

  it("counts the project changes once across the files, never editing projects", async () => {
    const files = {
      "sitesync.yaml": ROOT.replace("prune: true", "prune: false"),
      "clients/a.yaml": "websites:\n  - domain: a.com\nprojects:\n  - project: alpha.com\n    state: absent\n",
      "clients/b.yaml": "websites: []\nprojects:\n  - project: beta.com\n    state: absent\n",
    };
    const { config, files: loaded } = await load(files);
    const project = (name: string) => ({ project: name, reports: 1, result: 0, created_at: "2025-01-02T03:04:05.000000Z" });
    const live = { websites: [site(1, "a.com", { email: 1 })], projects: [project("alpha.com"), project("beta.com")] };
    const result = updateFiles({ files: loaded, into: undefined, live, policy: config.policy, projects: config.projects });
    expect(result.projectChanges).toBe(2);
    expect(result.files.every((f) => f.result.ok && f.result.text === f.source)).toBe(true);
  });
});
