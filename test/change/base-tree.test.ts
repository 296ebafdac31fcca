/**
 * The base of a config of many files (DESIGN §3): its `include:` globs matched against the base commit's
 * tree, by the loader's own globs, and each included file read at that commit; never the working tree,
 * never a symbolic link, nothing outside the root's folder, and every listing and read bounded.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type BaseTree, listBaseTree, readBaseFiles } from "../../src/change/base-tree.ts";
import { loadBase } from "../../src/change/load-base.ts";
import { MAX_INCLUDED_BYTES } from "../../src/config/include.ts";
import { loadConfig } from "../../src/config/load.ts";
import type { Config } from "../../src/config/types.ts";
import { git } from "../helpers/git.ts";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A repository with `files` committed; returns its folder and the commit. */
function repository(files: Record<string, string>): { dir: string; commit: string } {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-base-tree-"));
  folders.push(dir);
  write(dir, files);
  git(dir, "init", "-q");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  return { dir, commit: git(dir, "rev-parse", "HEAD") };
}

function write(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

async function loadNow(file: string): Promise<Config> {
  const result = await loadConfig(file, { env: {} });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.config;
}

const ROOT = 'version: 1\ninclude: ["clients/*.yaml", "clients/**/*.yaml"]\n';
const run = (cwd: string) => ({ cwd, timeoutMs: 10_000 });

describe("the base of a config of many files", () => {
  it("matches the globs against the commit and reads each file there, whatever the working tree holds now", async () => {
    const { dir } = repository({
      "outside.yaml": "websites:\n  - domain: outside.example.com\n",
      "fleet/sitesync.yaml": ROOT,
      "fleet/clients/a.yaml": "websites:\n  - domain: a.example.com\n",
      "fleet/clients/deep/b.yaml": "websites:\n  - domain: b.example.com\n",
      "fleet/clients/.hidden.yaml": "websites:\n  - domain: hidden.example.com\n",
    });
    // Now: a.yaml edited, b.yaml gone, z.yaml new, none committed.
    write(dir, {
      "fleet/clients/a.yaml": "websites:\n  - domain: a2.example.com\n",
      "fleet/clients/z.yaml": "websites:\n  - domain: z.example.com\n",
    });
    rmSync(join(dir, "fleet/clients/deep/b.yaml"));
    const head = await loadNow(join(dir, "fleet/sitesync.yaml"));
    expect(head.websites.map((w) => w.domain)).toEqual(["a2.example.com", "z.example.com"]);

    const base = await loadBase("HEAD", head, { fetch: false });
    if (!base.ok) throw new Error(JSON.stringify(base));
    expect(base.config.websites.map((w) => [w.domain, w.source?.file.replace(`${dir}/`, "")])).toEqual([
      ["a.example.com", "fleet/clients/a.yaml"],
      ["b.example.com", "fleet/clients/deep/b.yaml"],
    ]);
  });

  it("loads a base of many files once: one pass of the loader over the commit's root, tree and files", async () => {
    const { dir } = repository({
      "fleet/sitesync.yaml": ROOT,
      "fleet/clients/a.yaml": "websites:\n  - domain: a.example.com\n",
      "fleet/clients/deep/b.yaml": "websites:\n  - domain: b.example.com\n",
    });
    const head = await loadNow(join(dir, "fleet/sitesync.yaml"));
    const loads: string[] = [];
    const loader: typeof loadConfig = (file, options) => {
      loads.push(file);
      return loadConfig(file, options);
    };
    const base = await loadBase("HEAD", head, { fetch: false, loader });
    expect(base.ok && base.config.websites.map((w) => w.domain)).toEqual(["a.example.com", "b.example.com"]);
    expect(loads).toEqual([head.file]);
  });

  it("refuses a symbolic link a glob reaches at the commit, as on disk, naming it at the root's line", async () => {
    const { dir } = repository({
      "outside.yaml": "websites:\n  - domain: outside.example.com\n",
      "fleet/sitesync.yaml": ROOT,
      "fleet/clients/a.yaml": "websites:\n  - domain: a.example.com\n",
    });
    symlinkSync("../../outside.yaml", join(dir, "fleet/clients/link.yaml"));
    // On disk: an error, not a file skipped without a word.
    const now = await loadConfig(join(dir, "fleet/sitesync.yaml"), { env: {} });
    expect(now.ok ? [] : now.errors.map((e) => `${e.line}:${e.column} ${e.message}`)).toEqual([
      '2:11 "clients/*.yaml" matches clients/link.yaml, a symbolic link: include regular files inside this folder (copy the file, or include its real path if it is inside this folder)',
      '2:29 "clients/**/*.yaml" matches clients/link.yaml, a symbolic link: include regular files inside this folder (copy the file, or include its real path if it is inside this folder)',
    ]);
    // At the commit: the same. The link is committed, then gone from the working tree.
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "a link");
    rmSync(join(dir, "fleet/clients/link.yaml"));
    const base = await loadBase("HEAD", await loadNow(join(dir, "fleet/sitesync.yaml")), { fetch: false });
    expect(base).toMatchObject({ ok: false, reason: "base-invalid", detail: { line: 2, column: 11, code: "include.symlink" } });
  });

  it("loads a base that includes nothing as the one file it is", async () => {
    const { dir } = repository({ "sitesync.yaml": "version: 1\nwebsites:\n  - domain: a.example.com\n" });
    const head = await loadNow(join(dir, "sitesync.yaml"));
    const base = await loadBase("HEAD", head, { fetch: false });
    expect(base.ok && base.config.websites.map((w) => w.domain)).toEqual(["a.example.com"]);
    expect(base.ok && base.config.includes).toBeUndefined();
  });

  it("knows no change when an included file does not load at the base, naming it and where", async () => {
    const { dir } = repository({
      "sitesync.yaml": ROOT,
      "clients/a.yaml": "websites:\n  - domain: a.example.com\n",
      "clients/b.yaml": "websites:\n  - domain: b.example.com\n    privacy: secret\n",
    });
    write(dir, { "clients/b.yaml": "websites:\n  - domain: b.example.com\n" });
    const base = await loadBase("HEAD", await loadNow(join(dir, "sitesync.yaml")), { fetch: false });
    expect(base).toMatchObject({
      ok: false,
      reason: "base-invalid",
      detail: { file: "clients/b.yaml", line: 3, column: 14, code: "schema.enum" },
    });
  });

  it("knows no change when a glob matches nothing at the base (a file added since): the root's line is named", async () => {
    const { dir } = repository({ "sitesync.yaml": 'version: 1\ninclude: ["clients/*.yaml"]\nwebsites: []\n' });
    write(dir, { "clients/a.yaml": "websites:\n  - domain: a.example.com\n" });
    const base = await loadBase("HEAD", await loadNow(join(dir, "sitesync.yaml")), { fetch: false });
    expect(base).toMatchObject({ ok: false, reason: "base-invalid", detail: { line: 2, code: "include.no-match" } });
    expect(base.ok || base.detail?.file).toBeUndefined();
  });

  it("lists nothing outside the root's folder, and refuses a tree over its bound rather than cut it short", async () => {
    const { dir, commit } = repository({
      "top.yaml": "x\n",
      "fleet/sitesync.yaml": ROOT,
      "fleet/clients/a.yaml": "a\n",
      "fleet/clients/b.yaml": "b\n",
    });
    const rootDir = join(dir, "fleet");
    // git run in the root's folder, as for a config there.
    const listed = await listBaseTree(commit, "fleet", rootDir, run(rootDir));
    if (!listed.ok) throw new Error(listed.reason);
    expect(listed.tree.list(rootDir)?.map((e) => [e.name, e.kind])).toEqual([
      ["clients", "folder"],
      ["sitesync.yaml", "file"],
    ]);
    // The folder above the root's, and a path through `..`, are not listed: there is nothing there.
    expect(listed.tree.list(dir)).toBeUndefined();
    expect(listed.tree.list(join(rootDir, "..", "fleet-other"))).toBeUndefined();
    expect(listed.tree.blob(join(dir, "top.yaml"))).toBeUndefined();
    expect(listed.tree.blob(join(rootDir, "clients/a.yaml"))).toMatchObject({ size: 2 });

    expect(await listBaseTree(commit, "fleet", rootDir, run(dir), 2)).toEqual({ ok: false, reason: "base-tree-too-large" });
    expect((await listBaseTree(commit, "fleet", rootDir, run(dir), 3)).ok).toBe(true);
  });

  it("reads the files' bytes at the commit, and never more than the included files may hold together", async () => {
    const { dir, commit } = repository({ "sitesync.yaml": ROOT, "clients/a.yaml": "aaa\n", "clients/b.yaml": "b\n" });
    const listed = await listBaseTree(commit, "", dir, run(dir));
    if (!listed.ok) throw new Error(listed.reason);
    write(dir, { "clients/a.yaml": "changed since\n" });
    const read = await readBaseFiles(listed.tree, [join(dir, "clients/a.yaml"), join(dir, "clients/b.yaml")], run(dir));
    if (!read.ok) throw new Error(read.reason);
    expect([...read.bytes.values()].map((bytes) => Buffer.from(bytes).toString("utf8"))).toEqual(["aaa\n", "b\n"]);

    // Sizes as the tree lists them: over the bound, nothing is read at all (no git in a folder that is none).
    const huge: BaseTree = { list: () => undefined, blob: () => ({ oid: "0".repeat(40), size: MAX_INCLUDED_BYTES / 2 + 1 }) };
    const nowhere = run(join(dir, "no-such-folder"));
    expect(await readBaseFiles(huge, ["a.yaml", "b.yaml"], nowhere)).toEqual({ ok: false, reason: "base-too-large" });
    expect(await readBaseFiles(listed.tree, [join(dir, "clients/none.yaml")], run(dir))).toMatchObject({
      ok: false,
      reason: "base-unreadable",
    });
  });
});
