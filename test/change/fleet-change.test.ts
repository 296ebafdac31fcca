/**
 * The change of a fleet, account by account (DESIGN §3): each account's slice of the base, as the
 * commit holds every file, against the same account now. A real git repository in a temp folder.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { changeSince } from "../../src/change/change-since.ts";
import { accountConfig } from "../../src/config/accounts.ts";
import { loadConfig } from "../../src/config/load.ts";
import type { Config } from "../../src/config/types.ts";
import { git } from "../helpers/git.ts";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A repository with `base` committed, then `now` written over it (`null` deletes a file), not committed. */
function repository(base: Record<string, string>, now: Record<string, string | null>): string {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-fleet-change-"));
  folders.push(dir);
  const write = (files: Record<string, string | null>) => {
    for (const [name, text] of Object.entries(files)) {
      if (text === null) rmSync(join(dir, name));
      else {
        mkdirSync(join(dir, name, ".."), { recursive: true });
        writeFileSync(join(dir, name), text);
      }
    }
  };
  write(base);
  git(dir, "init", "-q");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  write(now);
  return dir;
}

async function load(dir: string): Promise<Config> {
  const result = await loadConfig(join(dir, "sitesync.yaml"), { env: {} });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.config;
}

/** Each account's change since HEAD: touched websites as `domain touch`, and why it reads in full. */
async function perAccount(dir: string): Promise<Record<string, { websites: string[]; fullRead: string[] }>> {
  const config = await load(dir);
  const changes: Record<string, { websites: string[]; fullRead: string[] }> = {};
  for (const account of config.accounts ?? []) {
    const result = await changeSince("HEAD", accountConfig(config, account), { fetch: false });
    if (!result.known) throw new Error(result.reason);
    changes[account.name] = { websites: result.change.websites.map((w) => `${w.domain} ${w.touch}`), fullRead: result.change.fullRead };
  }
  return changes;
}

const ROOT = [
  "version: 1",
  "accounts:",
  "  eu: { websites_url: https://stats.eu.example.com, api_key_env: EU_KEY }",
  "  us: { websites_url: https://stats.us.example.com, api_key_env: US_KEY }",
  'include: ["clients/*.yaml"]',
  "",
].join("\n");
const FILES = {
  "sitesync.yaml": ROOT,
  "clients/a.yaml": "account: eu\nwebsites:\n  - domain: a.eu\n  - domain: moved.eu\n    email: true\n",
  "clients/b.yaml": "account: eu\nwebsites:\n  - domain: b.eu\n",
  "clients/c.yaml": "account: us\nwebsites:\n  - domain: c.com\n",
};

describe("the change of a fleet, per account", () => {
  it("an entry moved to another file is no change, moved with an edit is that edit; a removed file removes its entries", async () => {
    const dir = repository(FILES, {
      "clients/a.yaml": "account: eu\nwebsites:\n  - domain: a.eu\n",
      "clients/b.yaml": "account: eu\nwebsites:\n  - domain: b.eu\n  - domain: moved.eu\n    email: true\n",
      "clients/c.yaml": null,
      "clients/d.yaml": "account: us\nwebsites:\n  - domain: d.com\n    email: false\n",
    });
    expect(await perAccount(dir)).toEqual({
      eu: { websites: [], fullRead: [] },
      us: { websites: ["c.com removed", "d.com added"], fullRead: [] },
    });
    writeFileSync(join(dir, "clients/b.yaml"), "account: eu\nwebsites:\n  - domain: b.eu\n  - domain: moved.eu\n    email: false\n");
    expect((await perAccount(dir)).eu).toEqual({ websites: ["moved.eu changed"], fullRead: [] });
  });

  it("a website moved from one account to another is removed from one and added to the other", async () => {
    const dir = repository(FILES, { "clients/b.yaml": "account: us\nwebsites:\n  - domain: b.eu\n" });
    expect(await perAccount(dir)).toEqual({
      eu: { websites: ["b.eu removed"], fullRead: [] },
      us: { websites: ["b.eu added"], fullRead: [] },
    });
  });

  it("reads in full what accounts: changed for an account: its address, its key variables, the account itself", async () => {
    const dir = repository(FILES, {
      "sitesync.yaml": ROOT.replace("https://stats.eu.example.com", "https://stats2.eu.example.com").replace(
        "api_key_env: US_KEY }",
        "api_key_env: US_KEY, projects_api_key_env: US_PROJECTS_KEY }",
      ),
    });
    expect(await perAccount(dir)).toEqual({
      eu: { websites: [], fullRead: ["websites-url"] },
      us: { websites: [], fullRead: ["accounts"] },
    });
  });

  it("a one-account file made into a fleet is compared with that file, and read in full", async () => {
    const dir = repository(
      { "sitesync.yaml": "version: 1\nwebsites_url: https://stats.example.com\nwebsites:\n  - domain: a.eu\n  - domain: b.eu\n" },
      {
        "sitesync.yaml":
          "version: 1\naccounts:\n  main: { websites_url: https://stats.example.com }\nwebsites:\n  - domain: a.eu\n  - domain: c.eu\n",
      },
    );
    expect(await perAccount(dir)).toEqual({ main: { websites: ["b.eu removed", "c.eu added"], fullRead: ["accounts"] } });
  });
});
