import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ItemResult } from "../apply/types.ts";
import type { WebsiteCreate } from "../plan/types.ts";
import { writeResults } from "./results-file.ts";
import type { RunHooks } from "./run-hooks.ts";
import { createRunRedactor } from "./run-redactor.ts";
import { openScope } from "./scope.ts";
import type { AccountRun, ApplyReport } from "./types.ts";

const create = (domain: string): WebsiteCreate => ({ kind: "website", action: "create", domain, fields: [], requests: 1 });
const applied = (domain: string): ItemResult => ({ change: create(domain), status: "applied", reason: "applied", id: 7 });
const report = (...items: ItemResult[]): ApplyReport => ({ items, counts: { applied: items.length, failed: 0, skipped: 0, unchanged: 0 } });
const account = (name: string, results?: ApplyReport): AccountRun => ({
  name,
  target: { websites: "https://stats.example" },
  keys: { apiKeyEnv: "SITESYNC_API_KEY", projectsApiKeyEnv: "SITESYNC_PROJECTS_API_KEY" },
  skipped: [],
  exitCode: 0,
  ...(results ? { results } : {}),
});

/** Writes the results of `accounts` as a run asked to (`file`: the results file, or none), and reads the file back. */
function write(accounts: AccountRun[], file: string | undefined, hooks: RunHooks = {}, secrets: string[] = []) {
  const redactor = createRunRedactor();
  redactor.add(secrets);
  const scope = openScope({ command: "apply", env: {}, redactor, settings: file === undefined ? {} : { resultsFile: file } }, hooks);
  const written = writeResults(scope, accounts);
  return { written, data: written === undefined ? undefined : JSON.parse(readFileSync(written, "utf8")) };
}

const fileIn = () => join(mkdtempSync(join(tmpdir(), "sitesync-results-")), "results.json");

describe("the results file (DESIGN §6)", () => {
  it("is written only when asked for, and only once an account applied", () => {
    expect(write([account("", report(applied("a.example.com")))], undefined).written).toBeUndefined();
    expect(write([account(""), account("")], fileIn()).written).toBeUndefined();
  });

  it("holds a config of one account's report as it is, each item with its reason in words beside its code", () => {
    const file = fileIn();
    const { written, data } = write([account("", report(applied("a.example.com")))], file, { noteOf: (item) => `note on ${item.reason}` });
    expect(written).toBe(file);
    expect(data).toEqual({
      counts: { applied: 1, failed: 0, skipped: 0, unchanged: 0 },
      items: [{ change: create("a.example.com"), status: "applied", reason: "applied", id: 7, note: "note on applied" }],
    });
  });

  it("holds a fleet's reports under each account's name, for the accounts that applied, in their order", () => {
    const accounts = [account("eu", report(applied("a.eu"))), account("mx"), account("us", report(applied("b.us")))];
    const { data } = write(accounts, fileIn());
    expect(data.format).toBe("sitesync-accounts");
    expect(data.version).toBe(1);
    expect(data.accounts.map((a: { account: string; items: ItemResult[] }) => [a.account, a.items[0]?.change])).toEqual([
      ["eu", create("a.eu")],
      ["us", create("b.us")],
    ]);
  });

  it("names the account even when one account of a fleet applied: the file's shape follows the config, not the count", () => {
    const { data } = write([account("eu"), account("us", report(applied("b.us")))], fileIn());
    expect(data.format).toBe("sitesync-accounts");
    expect(data.accounts.map((a: { account: string }) => a.account)).toEqual(["us"]);
  });

  it("withholds every secret of the run", () => {
    const secret = "the-stats-password-123";
    const failed: ItemResult = { change: create("a.example.com"), status: "failed", reason: "failed", error: { message: `bad ${secret}` } };
    const { written } = write([account("", report(failed))], fileIn(), {}, [secret]);
    expect(readFileSync(written!, "utf8")).not.toContain(secret);
  });
});
