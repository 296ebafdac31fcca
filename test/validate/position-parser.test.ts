/**
 * A valid config is read by the fast parse alone (DESIGN §2 "Loading"): the position-keeping `yaml` package
 * is not even loaded, which saves every command about 30 ms (src/config/yaml-package.ts). Once a problem
 * must be placed, it is loaded and places it. Each load runs in a fresh Node, whose module cache tells.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Loads `file` with the loader in a fresh process: whether it is valid, its messages, and whether yaml was loaded. */
function loadAlone(file: string): { ok: boolean; messages: string[]; yaml: boolean } {
  const script = `
    import { createRequire } from "node:module";
    const { loadConfig } = await import(${JSON.stringify(pathToFileURL(join(ROOT, "src/config/load.ts")).href)});
    const result = await loadConfig(${JSON.stringify(file)}, { env: {} });
    const yaml = Object.keys(createRequire(import.meta.url).cache).some((path) => /node_modules[\\\\/]yaml[\\\\/]/.test(path));
    const messages = result.ok ? [] : result.errors.map((e) => e.line + ":" + e.column + " " + e.message);
    console.log(JSON.stringify({ ok: result.ok, messages, yaml }));
  `;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout) as { ok: boolean; messages: string[]; yaml: boolean };
}

it("reads a valid config without loading the position-keeping parser", () => {
  expect(loadAlone(join(ROOT, "examples", "minimal.yaml"))).toEqual({ ok: true, messages: [], yaml: false });
});

it("loads it to place a problem, and places it", () => {
  const file = join(mkdtempSync(join(tmpdir(), "sitesync-yaml-")), "sitesync.yaml");
  writeFileSync(file, "version: 1\nwebsites:\n  - domian: a.example.com\n");
  expect(loadAlone(file)).toEqual({ ok: false, messages: ['3:5 unknown key "domian"; did you mean "domain"?'], yaml: true });
});
