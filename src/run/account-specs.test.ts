import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diagnosticsOf, loadOk } from "../../test/helpers/config.ts";
import { writeFiles } from "../../test/helpers/files.ts";
import { loadConfig } from "../config/load.ts";
import type { Config } from "../config/types.ts";
import { AccountSelectionError, AccountUrlError } from "../errors.ts";
import { accountSpecs, runOrder } from "./account-specs.ts";
import { createRunRedactor } from "./run-redactor.ts";
import { openScope } from "./scope.ts";
import type { RunRequest } from "./types.ts";

const FLEET = [
  "version: 1",
  "websites_url: https://root.example",
  "accounts:",
  "  eu: { websites_url: https://eu.example, api_key_env: EU_KEY, projects_api_key_env: EU_PROJECTS_KEY }",
  "  us: { api_key_env: US_KEY }",
  "  ap: { websites_url: https://eu.example/, api_key_env: AP_KEY }",
  'include: ["clients/*.yaml"]',
  "",
].join("\n");

/** A fleet: the root and a client file per account. */
async function fleet(root = FLEET): Promise<Config> {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-accounts-"));
  const clients = Object.fromEntries(["eu", "us", "ap"].map((name) => [`clients/${name}.yaml`, `account: ${name}\nwebsites: []\n`]));
  writeFiles(dir, { "sitesync.yaml": root, ...clients });
  const result = await loadConfig(join(dir, "sitesync.yaml"), { env: {} });
  if (!result.ok) throw new Error(diagnosticsOf(result).join("\n"));
  return result.config;
}
const ENV = { EU_KEY: "eu-key-0000000000", EU_PROJECTS_KEY: "eu-projects-000000", US_KEY: "us-key-0000000000", AP_KEY: "ap-key-00000000" };

function scope(settings: RunRequest["settings"] = {}, env: RunRequest["env"] = ENV) {
  return openScope({ command: "plan", env, settings, redactor: createRunRedactor() }, {});
}

describe("accountSpecs: the accounts a run runs, checked before any request", () => {
  it("gives every account of a fleet its own key variables, never an adapter's key, and its own address over the root's", async () => {
    const specs = accountSpecs(scope(), await fleet(), { apiKey: "adapter-key-0000", projectsApiKey: "adapter-projects" });
    expect(specs.map(({ name, address, secrets }) => ({ name, address, secrets }))).toEqual([
      { name: "eu", address: "https://eu.example", secrets: { apiKey: ENV.EU_KEY, projectsApiKey: ENV.EU_PROJECTS_KEY } },
      { name: "us", address: "https://root.example", secrets: { apiKey: ENV.US_KEY } },
      { name: "ap", address: "https://eu.example", secrets: { apiKey: ENV.AP_KEY } },
    ]);
  });

  it("gives an adapter's keys to the one account a run selects, and to a config without accounts:", async () => {
    const adapter = { apiKey: "adapter-key-0000", projectsApiKey: "adapter-projects" };
    const [us] = accountSpecs(scope({ accounts: ["us"] }), await fleet(), adapter);
    expect(us?.secrets).toEqual(adapter);
    const lone = accountSpecs(scope({}, { SITESYNC_WEBSITES_URL: "https://one.example" }), loadOk("version: 1\nwebsites: []\n"), adapter);
    expect(lone).toMatchObject([{ name: "", address: "https://one.example", secrets: adapter, keys: { apiKeyEnv: "SITESYNC_API_KEY" } }]);
  });

  it("redacts every account's keys before the first request of any of them", async () => {
    const s = scope();
    accountSpecs(s, await fleet());
    expect(s.redactor.redact(`${ENV.EU_PROJECTS_KEY} ${ENV.AP_KEY}`)).toBe("(sensitive) (sensitive)");
  });

  it("refuses an account without an address, a setting of one account given to several, and an unknown name", async () => {
    const noAddress = FLEET.replace("websites_url: https://root.example\n", "");
    const noAddressFleet = await fleet(noAddress);
    expect(() => accountSpecs(scope(), noAddressFleet)).toThrow(
      expect.objectContaining({ name: "AccountUrlError", account: "us", problem: { code: "missing" } }),
    );
    const config = await fleet();
    expect(() => accountSpecs(scope({ websitesUrl: "https://x.example" }), config)).toThrow(AccountSelectionError);
    expect(() => accountSpecs(scope({ accounts: ["uss"] }), config)).toThrow(
      expect.objectContaining({ problem: expect.objectContaining({ code: "unknown", guess: "us" }) }),
    );
    expect(() => accountSpecs(scope({ accounts: ["eu"] }), loadOk("version: 1\nwebsites_url: https://a.example\nwebsites: []\n"))).toThrow(
      expect.objectContaining({ problem: { code: "no-accounts", name: "eu" } }),
    );
  });

  it("refuses two entries that are one account of a server when one prunes", async () => {
    const twins = FLEET.replace("ap: { websites_url", "ap: { policy: { prune: true }, websites_url");
    const config = await fleet(twins);
    expect(() => accountSpecs(scope({}, { ...ENV, AP_KEY: ENV.EU_KEY }), config)).toThrow(
      expect.objectContaining({ problem: { code: "same-account", pruning: "ap", other: "eu" } }),
    );
    expect(() => accountSpecs(scope(), config)).not.toThrow();
  });

  it("names the address a variable contradicts", async () => {
    const lone = "version: 1\nwebsites_url: https://file.example\nwebsites: []\n";
    expect(() => accountSpecs(scope({}, { SITESYNC_WEBSITES_URL: "https://env.example" }), loadOk(lone))).toThrow(AccountUrlError);
  });
});

describe("runOrder", () => {
  it("runs accounts on one server one after the other, other servers side by side, and a person's prompts one at a time", async () => {
    const specs = accountSpecs(scope(), await fleet());
    expect(runOrder(specs, false).map((group) => group.map((s) => s.name))).toEqual([["eu", "ap"], ["us"]]);
    expect(runOrder(specs, true).map((group) => group.map((s) => s.name))).toEqual([["eu", "us", "ap"]]);
  });
});
