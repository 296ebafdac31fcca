/** A config over many files (DESIGN §2 "Many files, many accounts"): the root's `include:` globs, checked file by file and across. */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../errors.ts";
import { loadConfig } from "./load.ts";

/** A folder with `files` (relative paths), as a repository holds them; returns its path. */
function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-include-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const ROOT = "version: 1\npolicy: { prune: true }\ndefaults: { exclude_bots: true }\ninclude: [clients/*.yaml]\n";

const REGULAR = "include regular files inside this folder (copy the file, or include its real path if it is inside this folder)";

/** `file:line:col path: message`, with the file relative to the repository. */
function where(dir: string, diagnostics: Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.file.replace(`${dir}/`, "")}:${d.line}:${d.column} ${d.path}: ${d.message}`);
}

describe("include", () => {
  it("brings in each matched file in sorted order, its defaults over the root's, each website sourced in its own file", async () => {
    const dir = repo({
      "sitesync.yaml": `${ROOT}websites:\n  - domain: root.example.com\n`,
      "clients/b.yaml": "websites:\n  - domain: b.example.com\n",
      "clients/a.yaml":
        "defaults: { email: true }\nwebsites:\n  - domain: a.example.com\n  - domain: shop.a.example.com\n    privacy: private\n",
      "clients/notes.txt": "not a config",
    });
    const result = await loadConfig(join(dir, "sitesync.yaml"), { env: {} });
    if (!result.ok) throw new Error(where(dir, result.errors).join("\n"));
    const { websites, includes, policy } = result.config;
    expect(websites.map((w) => [w.domain, w.source?.file.replace(`${dir}/`, ""), w.source?.line])).toEqual([
      ["root.example.com", "sitesync.yaml", 6],
      ["a.example.com", "clients/a.yaml", 3],
      ["shop.a.example.com", "clients/a.yaml", 4],
      ["b.example.com", "clients/b.yaml", 2],
    ]);
    expect(websites[1]).toMatchObject({ exclude_bots: 1, email: 1 });
    expect(websites[3]).toMatchObject({ exclude_bots: 1 });
    expect(websites[3]?.email).toBeUndefined();
    expect(policy.prune).toBe(true);
    expect(includes?.map((i) => i.file.replace(`${dir}/`, ""))).toEqual(["clients/a.yaml", "clients/b.yaml"]);
  });

  it("names each error in its own file, line and column, and every file's errors in one run", async () => {
    const dir = repo({
      "sitesync.yaml": `${ROOT}websites: []\n`,
      "clients/a.yaml": "websites:\n  - domain: a.example.com\n    privacy: secret\n",
      "clients/b.yaml": "websites_url: https://x.example\nwebsites:\n  - domain: b.example.com\n    exclude_ips: [not-an-ip]\n",
    });
    const result = await loadConfig(join(dir, "sitesync.yaml"), { env: {} });
    expect(result.ok).toBe(false);
    const lines = where(dir, result.ok ? [] : result.errors);
    expect(lines).toContainEqual(
      expect.stringMatching(/^clients\/a\.yaml:3:14 websites\[0\]\.privacy: must be one of public, private, password/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^clients\/b\.yaml:1:1 websites_url: unknown key "websites_url" here: only the root file sets it; an included file holds/,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^clients\/b\.yaml:4:19 websites\[0\]\.exclude_ips\[0\]: /));
  });

  it("refuses a domain listed in two files, naming both places", async () => {
    const dir = repo({
      "sitesync.yaml": `${ROOT}websites:\n  - domain: shared.example.com\n`,
      "clients/a.yaml": "websites:\n  - domain: other.example.com\n  - domain: Shared.Example.com\n",
    });
    const result = await loadConfig(join(dir, "sitesync.yaml"), { env: {} });
    expect(where(dir, result.ok ? [] : result.errors)).toEqual([
      `clients/a.yaml:3:13 websites[1].domain: duplicate website "shared.example.com": already listed at ${dir}/sitesync.yaml:6:13; keep one entry`,
    ]);
  });

  it("refuses a glob that matches nothing, one that leaves the folder, and never follows a symbolic link", async () => {
    const dir = repo({ "sitesync.yaml": "version: 1\ninclude: [client/*.yaml, ../other/*.yaml, /etc/*.conf, links/*.yaml]\n" });
    mkdirSync(join(dir, "links"));
    symlinkSync("/etc/hostname", join(dir, "links", "host.yaml"));
    const result = await loadConfig(join(dir, "sitesync.yaml"), { env: {} });
    expect(where(dir, result.ok ? [] : result.errors).map((line) => line.replace(`${dir}/`, ""))).toEqual([
      'sitesync.yaml:2:11 include[0]: "client/*.yaml" matches no file next to sitesync.yaml; fix the glob or remove it',
      'sitesync.yaml:2:26 include[1]: "../other/*.yaml" must stay inside this file\'s folder (no ..)',
      'sitesync.yaml:2:43 include[2]: "/etc/*.conf" must be relative to this file, not an absolute path',
      `sitesync.yaml:2:56 include[3]: "links/*.yaml" matches links/host.yaml, a symbolic link: ${REGULAR}`,
    ]);
  });

  it("quotes a glob as written, never the value of a ${VAR} in it, which may be a password", async () => {
    const dir = repo({ "sitesync.yaml": 'version: 1\ninclude: ["c/${CLIENT_PW}.yaml", "../${CLIENT_PW}/*.yaml"]\n' });
    const result = await loadConfig(join(dir, "sitesync.yaml"), { env: { CLIENT_PW: "topsecretpw" } });
    const told = where(dir, result.ok ? [] : result.errors).map((line) => line.replace(`${dir}/`, ""));
    expect(told).toEqual([
      'sitesync.yaml:2:11 include[0]: "c/${CLIENT_PW}.yaml" matches no file next to sitesync.yaml; fix the glob or remove it',
      'sitesync.yaml:2:34 include[1]: "../${CLIENT_PW}/*.yaml" must stay inside this file\'s folder (no ..)',
    ]);
    expect(JSON.stringify(result)).not.toContain("topsecretpw");
  });

  it("quotes an included file's account as written, never the short ${VAR} value behind it", async () => {
    const dir = repo({
      "sitesync.yaml":
        'version: 1\naccounts:\n  eu: {websites_url: "https://a.example.com"}\n  us: {websites_url: "https://b.example.com"}\ninclude: ["c.yaml"]\n',
      "c.yaml": 'account: "${PW}"\nwebsites: []\n',
    });
    const result = await loadConfig(join(dir, "sitesync.yaml"), { env: { PW: "secret9xyz" } });
    expect(where(dir, result.ok ? [] : result.errors)).toEqual(['c.yaml:1:10 account: no account "${PW}" in the root file: one of eu, us']);
    expect(JSON.stringify(result)).not.toContain("secret9xyz");
  });

  it("names a symbolic link a glob reaches, whether a file it matches, one named outright, or a folder it walks into", async () => {
    // A link skipped without a word would leave its websites unmanaged, and with prune on, propose their deletes.
    const dir = repo({
      "sitesync.yaml": "version: 1\ninclude:\n  - clients/*.yaml\n  - clients/link.yaml\n  - moved/*.yaml\n  - tree/**/*.yaml\n",
      "clients/a.yaml": "account: us\nwebsites: []\n",
      "other/s.yaml": "websites:\n  - domain: sym.example.com\n",
      "tree/a/b.yaml": "websites: []\n",
    });
    symlinkSync("../other/s.yaml", join(dir, "clients", "link.yaml"));
    symlinkSync("other", join(dir, "moved"));
    symlinkSync("../../other", join(dir, "tree", "a", "deeper"));
    const result = await loadConfig(join(dir, "sitesync.yaml"), { env: {} });
    expect(where(dir, result.ok ? [] : result.errors)).toEqual([
      `sitesync.yaml:3:5 include[0]: "clients/*.yaml" matches clients/link.yaml, a symbolic link: ${REGULAR}`,
      `sitesync.yaml:4:5 include[1]: "clients/link.yaml" matches clients/link.yaml, a symbolic link: ${REGULAR}`,
      `sitesync.yaml:5:5 include[2]: "moved/*.yaml" matches moved, a symbolic link: ${REGULAR}`,
      `sitesync.yaml:6:5 include[3]: "tree/**/*.yaml" walks into tree/a/deeper, a symbolic link: ${REGULAR}`,
    ]);
  });

  it("tells an empty or shapeless included file what an included file holds, not the root's version", async () => {
    const dir = repo({
      "sitesync.yaml": `${ROOT}websites: []\n`,
      "clients/empty.yaml": "",
      "clients/list.yaml": "- domain: a.example.com\n",
    });
    const result = await loadConfig(join(dir, "sitesync.yaml"), { env: {} });
    expect(where(dir, result.ok ? [] : result.errors)).toEqual([
      'clients/empty.yaml:1:1 : the file is empty; an included file needs "websites:" (and "account: NAME" when the root file has several accounts)',
      "clients/list.yaml:1:1 : the file must be a mapping of keys (account, websites, ...), not a list",
    ]);
    // The root keeps its own words.
    const root = await loadConfig("sitesync.yaml", { source: "", env: {} });
    expect(root.ok ? [] : root.errors.map((e) => e.message)).toEqual(['the file is empty; it needs at least "version: 1" and "websites:"']);
  });

  it("has a digest over every file: an edit of an included file changes it, and a single file keeps its own", async () => {
    const files = { "sitesync.yaml": `${ROOT}websites: []\n`, "clients/a.yaml": "websites:\n  - domain: a.example.com\n" };
    const digest = async (dir: string) => {
      const result = await loadConfig(join(dir, "sitesync.yaml"), { env: {} });
      if (!result.ok) throw new Error(where(dir, result.errors).join("\n"));
      return result.config.digest;
    };
    const before = await digest(repo(files));
    expect(await digest(repo(files))).toBe(before);
    expect(await digest(repo({ ...files, "clients/a.yaml": "websites:\n  - domain: a.example.com\n    email: true\n" }))).not.toBe(before);
    const single = await loadConfig("sitesync.yaml", { source: "version: 1\nwebsites: []\n", env: {} });
    expect(single.ok && single.config.digest).toBe(createHash("sha256").update("version: 1\nwebsites: []\n").digest("hex"));
    expect(single.ok && single.config.includes).toBeUndefined();
  });

  it("manages projects when any file lists them, and refuses one listed in two files", async () => {
    const dir = repo({
      "sitesync.yaml": `${ROOT}websites: []\n`,
      "clients/a.yaml": "websites: []\nprojects:\n  - project: a.example.com\n",
      "clients/b.yaml": "projects:\n  - project: A.example.com\n",
    });
    const result = await loadConfig(join(dir, "sitesync.yaml"), { env: {} });
    expect(where(dir, result.ok ? [] : result.errors)).toEqual([
      `clients/b.yaml:2:14 projects[0].project: duplicate project "A.example.com": already listed at ${dir}/clients/a.yaml:3:14; keep one entry`,
    ]);
  });
});
