import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { sitesync } from "../helpers/cli.ts";
import { writeFiles } from "../helpers/files.ts";
import { git as gitIn } from "../helpers/git.ts";

let dir: string;

const git = (...args: string[]): string => gitIn(dir, ...args);

const write = (files: Record<string, string>): void => writeFiles(dir, files);

const ROOT = [
  "version: 1",
  "accounts:",
  "  eu: { websites_url: https://stats.eu.example.com, api_key_env: SITESYNC_EU_API_KEY }",
  "  us: { websites_url: https://stats.us.example.com, api_key_env: SITESYNC_US_API_KEY }",
  "  apac: { websites_url: https://stats.apac.example.com }",
  "policy: { max_deletes: 5 }",
  'include: ["clients/*.yaml"]',
  "",
].join("\n");

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "sitesync-matrix-"));
  git("init", "-q");
  write({
    "sitesync.yaml": ROOT,
    "clients/acme.yaml": "account: eu\nwebsites:\n  - domain: acme.com\n",
    "clients/cora.yaml": "account: us\nwebsites:\n  - domain: cora.com\n",
    "clients/kiwi.yaml": "account: apac\nwebsites:\n  - domain: kiwi.nz\n",
    "README.md": "the fleet\n",
  });
  git("add", "-A");
  git("commit", "-q", "-m", "base");
});

async function matrix(...args: string[]): Promise<string[]> {
  const result = await sitesync(["matrix", ...args], { cwd: dir });
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { include: { account: string }[] }).include.map((leg) => leg.account);
}

describe("sitesync matrix", () => {
  it("lists every account, in the root file's order, with its key variables, as a matrix GitHub reads with fromJSON", async () => {
    const result = await sitesync(["matrix"], { cwd: dir });
    expect(result.stdout.trim()).toBe(
      '{"include":[' +
        '{"account":"eu","api_key_env":"SITESYNC_EU_API_KEY","projects_api_key_env":"SITESYNC_PROJECTS_API_KEY"},' +
        '{"account":"us","api_key_env":"SITESYNC_US_API_KEY","projects_api_key_env":"SITESYNC_PROJECTS_API_KEY"},' +
        '{"account":"apac","api_key_env":"SITESYNC_API_KEY","projects_api_key_env":"SITESYNC_PROJECTS_API_KEY"}]}',
    );
  });

  it("a leg carries its own account's key variables, as its entry names them, with or without a change", async () => {
    write({
      "sitesync.yaml": ROOT.replace(
        "api_key_env: SITESYNC_US_API_KEY",
        "api_key_env: ACME_US_KEY, projects_api_key_env: ACME_US_PROJECTS_KEY",
      ),
    });
    const us = { account: "us", api_key_env: "ACME_US_KEY", projects_api_key_env: "ACME_US_PROJECTS_KEY" };
    const all = await sitesync(["matrix"], { cwd: dir });
    expect(JSON.parse(all.stdout).include[1]).toEqual(us);
    const changed = await sitesync(["matrix", "--changed-since", "HEAD"], { cwd: dir });
    expect(JSON.parse(changed.stdout)).toEqual({ include: [us] });
  });

  it("a config without accounts: is one leg with the default key variables", async () => {
    write({ "one.yaml": "version: 1\nwebsites:\n  - domain: acme.com\n" });
    const result = await sitesync(["matrix", "-c", "one.yaml"], { cwd: dir });
    expect(JSON.parse(result.stdout)).toEqual({
      include: [{ account: "", api_key_env: "SITESYNC_API_KEY", projects_api_key_env: "SITESYNC_PROJECTS_API_KEY" }],
    });
  });

  it("lists nothing when nothing changed, and only the account whose file changed", async () => {
    expect(await matrix("--changed-since", "HEAD")).toEqual([]);
    write({ "clients/cora.yaml": "account: us\nwebsites:\n  - domain: cora.com\n    email: true\n", "README.md": "more\n" });
    expect(await matrix("--changed-since", "HEAD")).toEqual(["us"]);
  });

  it("counts a new client file (committed or not) for its account", async () => {
    write({ "clients/zeta.yaml": "account: apac\nwebsites:\n  - domain: zeta.jp\n" });
    expect(await matrix("--changed-since", "HEAD")).toEqual(["apac"]);
  });

  it("an edit of one account's entry touches that account; of the shared policy, every account", async () => {
    write({ "sitesync.yaml": ROOT.replace("SITESYNC_EU_API_KEY", "SITESYNC_EU2_API_KEY") });
    expect(await matrix("--changed-since", "HEAD")).toEqual(["eu"]);
    write({ "sitesync.yaml": ROOT.replace("max_deletes: 5", "max_deletes: 6") });
    expect(await matrix("--changed-since", "HEAD")).toEqual(["eu", "us", "apac"]);
  });

  it("a client file moved to another account touches both: one gains its websites, the other loses them", async () => {
    write({ "clients/cora.yaml": "account: eu\nwebsites:\n  - domain: cora.com\n" });
    expect(await matrix("--changed-since", "HEAD")).toEqual(["eu", "us"]);
  });

  it("a removed client file touches every account: whose websites it held is no longer known", async () => {
    rmSync(join(dir, "clients/kiwi.yaml"));
    write({ "clients/kiwi2.yaml": "account: apac\nwebsites:\n  - domain: kiwi.nz\n" });
    expect(await matrix("--changed-since", "HEAD")).toEqual(["eu", "us", "apac"]);
  });

  it("lists every account, with a note, when the base cannot be read", async () => {
    const result = await sitesync(["matrix", "--changed-since", "no-such-ref"], { cwd: dir });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).include).toHaveLength(3);
    expect(result.stderr).toContain(
      "note: the change since no-such-ref is not known (git knows no such revision, and it could not be fetched: check its spelling; a shallow clone needs the history it names (git fetch --deepen=N, or actions/checkout with fetch-depth: 0)): every account is listed",
    );
  });
});
