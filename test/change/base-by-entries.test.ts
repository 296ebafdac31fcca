/**
 * A base loaded from the entries in which it differs (DESIGN §3, §8 "Loading"): a change of a few entries in
 * a large file loads a few entries of its base, and finds the same change as the whole base would.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { changeOf } from "../../src/change/change-since.ts";
import { loadBase } from "../../src/change/load-base.ts";
import { loadConfig } from "../../src/config/load.ts";
import type { Config } from "../../src/config/types.ts";
import { git } from "../helpers/git.ts";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const entry = (i: number, email = i % 2 === 0) => `  - domain: site-${i}.example.com\n    email: ${email}\n`;
const file = (entries: string[]) => `version: 1\ndefaults:\n  exclude_bots: true\nwebsites:\n${entries.join("")}`;
const BASE = Array.from({ length: 300 }, (_, i) => entry(i));

/** The config committed as `base`, then written as `now` (and committed); the config now, loaded. */
async function repository(base: string, now: string): Promise<Config> {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-entries-"));
  folders.push(dir);
  const path = join(dir, "sitesync.yaml");
  writeFileSync(path, base);
  git(dir, "init", "-q");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  writeFileSync(path, now);
  git(dir, "commit", "-q", "-am", "now");
  const loaded = await loadConfig(path, { env: {} });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return loaded.config;
}

/** The change found from the base's differing entries, the change found from the whole base, and what was loaded. */
async function bothWays(head: Config) {
  const loads: number[] = [];
  const loader: typeof loadConfig = (path, options) => {
    loads.push(options?.source?.length ?? -1);
    return loadConfig(path, options);
  };
  const cut = await loadBase("HEAD~1", head, { fetch: false, byEntries: true, loader, env: {} });
  const whole = await loadBase("HEAD~1", head, { fetch: false, env: {} });
  if (!cut.ok || !whole.ok) throw new Error(JSON.stringify({ cut, whole }));
  return { fromEntries: changeOf(cut.config, cut.now ?? head, "HEAD~1"), fromWhole: changeOf(whole.config, head, "HEAD~1"), loads };
}

describe("a base loaded from the entries in which it differs", () => {
  it("finds the change the whole base finds, loading a few entries of each side", async () => {
    const now = [...BASE];
    now[10] = entry(10, false);
    now.splice(150, 1);
    now.splice(200, 0, entry(1000));
    now[299] = entry(299, true);
    const head = await repository(file(BASE), file(now));
    const { fromEntries, fromWhole, loads } = await bothWays(head);
    expect(fromEntries).toEqual(fromWhole);
    expect(fromEntries.websites.map((w) => `${w.domain} ${w.touch}`)).toEqual([
      "site-10.example.com changed",
      "site-1000.example.com added",
      "site-150.example.com removed",
      "site-299.example.com changed",
    ]);
    expect(loads).toHaveLength(2);
    for (const length of loads) expect(length).toBeLessThan(file(BASE).length / 20);
  });

  it("loads the whole base when it listed a domain twice, and says it is invalid", async () => {
    const base = [...BASE, entry(5, true)];
    const head = await repository(file(base), file(BASE));
    const cut = await loadBase("HEAD~1", head, { fetch: false, byEntries: true, env: {} });
    expect(cut).toMatchObject({ ok: false, known: false, reason: "base-invalid" });
  });
});
