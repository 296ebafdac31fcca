import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { changeSince } from "../../src/change/change-since.ts";
import { readBaseText } from "../../src/change/read-base.ts";
import { loadConfig } from "../../src/config/load.ts";
import type { Config } from "../../src/config/types.ts";
import { git } from "../helpers/git.ts";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-change-"));
  folders.push(dir);
  return dir;
}

/** A repository with the config at `path` committed as `base`, then as `head`; returns both commits. */
function repository(base: string | undefined, head: string, path = "sitesync.yaml") {
  const dir = tempDir();
  git(dir, "init", "-q");
  const file = join(dir, path);
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(join(dir, "README"), "x\n");
  if (base !== undefined) writeFileSync(file, base);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  const baseCommit = git(dir, "rev-parse", "HEAD");
  writeFileSync(file, head);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "head");
  return { dir, file, baseCommit, headCommit: git(dir, "rev-parse", "HEAD") };
}

const env = { SHOP_PW: "s3cret-one", SHOP_PW_2: "s3cret-two" };

async function loadHead(file: string): Promise<Config> {
  const result = await loadConfig(file, { env });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.config;
}

const BASE = `version: 1
policy:
  prune: true
websites:
  - domain: a.example.com
    exclude_params: [utm_source]
  - domain: shop.example.com
    privacy: password
    password: \${SHOP_PW}
  - domain: old.example.com
  - domain: quiet.example.com
`;

async function changeOf(base: string | undefined, head: string, ref = "HEAD~1") {
  const repo = repository(base, head);
  return { repo, result: await changeSince(ref, await loadHead(repo.file), { env }) };
}

describe("changeSince over a git repository", () => {
  it("sends exclude_params that an edit added, naming the base and its commit", async () => {
    const { repo, result } = await changeOf(BASE, BASE.replace("[utm_source]", "[utm_source, fbclid]"));
    expect(result).toEqual({
      known: true,
      change: {
        ref: "HEAD~1",
        commit: repo.baseCommit,
        websites: [
          { domain: "a.example.com", touch: "changed", edited: ["exclude_params"], send: [{ field: "exclude_params", edit: "edited" }] },
        ],
        projects: [],
        fullRead: [],
        // The config now is HEAD, unedited: a website written after it was written by applying it.
        head: { commit: repo.headCommit, time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) },
      },
    });
  });

  it("rotates a password by password_version, and a renamed ${VAR} is an edit, with no secret needed at the base", async () => {
    const rotated = await changeOf(BASE, BASE.replace("password: ${SHOP_PW}", "password: ${SHOP_PW}\n    password_version: 2"));
    expect(rotated.result.known && rotated.result.change.websites).toEqual([
      { domain: "shop.example.com", touch: "changed", edited: ["password_version"], send: [{ field: "password", edit: "rotated" }] },
    ]);
    const repo = repository(BASE, BASE.replace("${SHOP_PW}", "${SHOP_PW_2}"));
    // The base's variable is not set at all: only its name is compared.
    const renamed = await changeSince("HEAD~1", await loadHead(repo.file), { env: { SHOP_PW_2: "s3cret-two" } });
    expect(renamed.known && renamed.change.websites).toEqual([
      { domain: "shop.example.com", touch: "changed", edited: ["password"], send: [{ field: "password", edit: "edited" }] },
    ]);
    expect(JSON.stringify(renamed)).not.toContain("s3cret");
  });

  it("touches a website added, one removed (for prune) and one tombstoned", async () => {
    const head = BASE.replace("  - domain: quiet.example.com\n", "  - domain: new.example.com\n").replace(
      "  - domain: old.example.com\n",
      "  - domain: old.example.com\n    state: absent\n",
    );
    const { result } = await changeOf(BASE, head);
    expect(result.known && result.change.websites.map((w) => [w.domain, w.touch])).toEqual([
      ["new.example.com", "added"],
      ["old.example.com", "tombstoned"],
      ["quiet.example.com", "removed"],
    ]);
  });

  it("reads in full after a defaults edit", async () => {
    const { result } = await changeOf(BASE, BASE.replace("policy:", "defaults:\n  email: true\npolicy:"));
    expect(result.known && result.change.fullRead).toEqual(["defaults"]);
  });

  it("knows no change when the file does not exist at the base (added in this change)", async () => {
    const { result } = await changeOf(undefined, BASE);
    expect(result).toEqual({ known: false, ref: "HEAD~1", reason: "base-missing" });
  });

  it("knows no change when the base does not load, pointing at its first error", async () => {
    const { result } = await changeOf("version: 1\nwebsites:\n  - domain: a.example.com\n    privacy: secret\n", BASE);
    expect(result).toEqual({ known: false, ref: "HEAD~1", reason: "base-invalid", detail: { line: 4, column: 14, code: "schema.enum" } });
  });

  it("finds the file relative to the repository root, from any folder, and refuses what git could read as an option", async () => {
    const repo = repository(BASE, BASE.replace("[utm_source]", "[fbclid]"), "infra/analytics/sitesync.yaml");
    const result = await changeSince(repo.baseCommit, await loadHead(repo.file), { env });
    expect(result.known && result.change.websites.map((w) => w.domain)).toEqual(["a.example.com"]);
    for (const ref of ["--output=/tmp/x", "HEAD:README", "a b", ""]) {
      expect(await readBaseText(ref, repo.file), ref).toEqual({ ok: false, ref, reason: "ref-invalid" });
    }
    expect(await readBaseText("no-such-branch", repo.file, { fetch: false })).toMatchObject({ ok: false, reason: "ref-unknown" });
    // The one fetch fails (the remote is gone): no change known, with git's exit code and never its words.
    git(repo.dir, "remote", "add", "origin", `file://${join(tempDir(), "gone")}`);
    expect(await readBaseText("no-such-branch", repo.file)).toEqual({
      ok: false,
      ref: "no-such-branch",
      reason: "ref-unknown",
      detail: { exitCode: 128 },
    });
  });

  it("knows no change outside a git repository", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "sitesync.yaml"), BASE);
    const result = await changeSince("HEAD~1", await loadHead(join(dir, "sitesync.yaml")), { env });
    expect(result).toMatchObject({ known: false, reason: "not-a-repository" });
  });

  it("fetches the base commit once in a shallow clone (actions/checkout's --depth 1)", async () => {
    const origin = repository(BASE, BASE.replace("[utm_source]", "[utm_source, fbclid]"));
    const clone = join(tempDir(), "clone");
    git(tmpdir(), "clone", "-q", "--depth", "1", `file://${origin.dir}`, clone);
    // The base is not in the clone: HEAD~1 cannot even be named there.
    expect(await readBaseText(origin.baseCommit, join(clone, "sitesync.yaml"), { fetch: false })).toMatchObject({ reason: "ref-unknown" });
    const result = await changeSince(origin.baseCommit, await loadHead(join(clone, "sitesync.yaml")), { env });
    expect(result.known && result.change.websites.map((w) => [w.domain, w.send])).toEqual([
      ["a.example.com", [{ field: "exclude_params", edit: "edited" }]],
    ]);
    const unknown = await changeSince("HEAD~1", await loadHead(join(clone, "sitesync.yaml")), { env });
    expect(unknown).toMatchObject({ known: false, ref: "HEAD~1", reason: "ref-unknown" });
  });

  it("fetches a base the full clone lacks without making the clone shallow or cutting its history", async () => {
    const origin = repository(BASE, BASE.replace("[utm_source]", "[utm_source, fbclid]"));
    const clone = join(tempDir(), "clone");
    git(tmpdir(), "clone", "-q", `file://${origin.dir}`, clone);
    // The remote moves on: its new commit, named by its hash, is in no branch of the clone.
    writeFileSync(join(origin.dir, "README"), "y\n");
    git(origin.dir, "commit", "-q", "-am", "later");
    const later = git(origin.dir, "rev-parse", "HEAD");
    const result = await readBaseText(later, join(clone, "sitesync.yaml"));
    expect(result).toMatchObject({ ok: true, commit: later, fetched: true });
    expect(git(clone, "rev-parse", "--is-shallow-repository")).toBe("false");
    expect(git(clone, "rev-list", "--count", "HEAD")).toBe("2");
    expect(git(clone, "rev-list", "--count", later)).toBe("3");
  });
});
