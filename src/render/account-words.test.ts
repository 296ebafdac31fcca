import { describe, expect, it } from "vitest";
import { accountSelectionMessage, accountUrlMessage } from "./account-words.ts";

describe("accountUrlMessage: the account's address, in the words of the surface that sets it", () => {
  it("asks for a missing address by the flag, the variable or the file's key (CLI), or by the input (Action)", () => {
    expect(accountUrlMessage("websites", { code: "missing" }, "cli")).toBe(
      "this command needs the API address: pass --websites-url <url>, set SITESYNC_WEBSITES_URL, or set websites_url in the config",
    );
    expect(accountUrlMessage("projects", { code: "missing" }, "action")).toBe(
      "this command needs the projects API address (it reads projects): set the projects-url input (e.g. `projects-url: ${{ vars.SITESYNC_PROJECTS_URL }}`) or projects_url in the config",
    );
  });

  it("names a fleet's account and its own key in the config, and how to give its address in its leg", () => {
    expect(accountUrlMessage("websites", { code: "missing" }, "cli", "eu")).toBe(
      "account eu has no API address: set accounts.eu.websites_url in the config, or pass --account eu --websites-url <url>",
    );
    expect(accountUrlMessage("websites", { code: "missing" }, "action", "eu")).toBe(
      "account eu has no API address: set accounts.eu.websites_url in the config, or set the websites-url input in its leg",
    );
  });

  it("says where an unusable address came from and why no key may go there", () => {
    const invalid = (source: "setting" | "env" | "file", surface: "cli" | "action") =>
      accountUrlMessage(
        "websites",
        { code: "invalid", source, input: "http://stats.example.com", problem: { code: "plain-http", hostname: "stats.example.com" } },
        surface,
      );
    const why = "refusing plain http:// to stats.example.com: the API key would cross the network in clear text; use https://";
    expect(invalid("setting", "cli")).toBe(`--websites-url: ${why}`);
    expect(invalid("setting", "action")).toBe(`the websites-url input: ${why}`);
    expect(invalid("env", "cli")).toBe(`SITESYNC_WEBSITES_URL: ${why}`);
    expect(invalid("file", "action")).toBe(`websites_url: ${why}`);
  });

  it.each([
    [{ code: "not-url" } as const, '"stats" is not a URL (expected e.g. https://analytics.example.com)'],
    [{ code: "scheme", protocol: "ftp:" } as const, "only https:// URLs are supported, got ftp://"],
    [{ code: "credentials" } as const, "give the base address only, without credentials, query or fragment"],
    [{ code: "query" } as const, "give the base address only, without credentials, query or fragment"],
  ])("words %j", (problem, words) => {
    expect(accountUrlMessage("websites", { code: "invalid", source: "file", input: "stats", problem }, "cli")).toBe(
      `websites_url: ${words}`,
    );
  });

  it("names both addresses when the variable names another account than the file, and how to choose on purpose", () => {
    const problem = { code: "env-differs", env: "https://b.example", file: "https://a.example", configFile: "sitesync.yaml" } as const;
    const both = "SITESYNC_WEBSITES_URL (https://b.example) names another account than websites_url in sitesync.yaml (https://a.example)";
    expect(accountUrlMessage("websites", problem, "cli")).toBe(
      `${both}: unset SITESYNC_WEBSITES_URL to use the file's, or pass --websites-url <url> to choose the account on purpose`,
    );
    expect(accountUrlMessage("websites", problem, "action")).toBe(
      `${both}: unset SITESYNC_WEBSITES_URL to use the file's, or set the websites-url input to choose the account on purpose`,
    );
    expect(accountUrlMessage("websites", problem, "cli", "eu")).toContain("or pass --account eu --websites-url <url> to choose");
  });
});

describe("accountSelectionMessage: a fleet's selection, by --account (CLI) or the account input (Action)", () => {
  it("suggests the account meant, or lists them", () => {
    expect(accountSelectionMessage({ code: "unknown", name: "euu", known: ["eu", "us"], guess: "eu" }, "cli")).toBe(
      "--account euu: no such account in the config; did you mean eu?",
    );
    expect(accountSelectionMessage({ code: "unknown", name: "zz", known: ["eu", "us"] }, "action")).toBe(
      "the account input (zz): no such account in the config: one of eu, us",
    );
  });

  it("says a config without accounts: is one account", () => {
    expect(accountSelectionMessage({ code: "no-accounts", name: "eu" }, "cli")).toBe(
      "--account eu: the config has no accounts:, it is one account; leave --account out",
    );
    expect(accountSelectionMessage({ code: "no-accounts", name: "eu" }, "action")).toBe(
      "the account input (eu): the config has no accounts:, it is one account; leave the account input out",
    );
  });

  it("asks for one account where a setting fits one only: --account on the CLI, a leg per account in a workflow", () => {
    const known = ["eu", "us"];
    expect(accountSelectionMessage({ code: "one-only", setting: "out", known }, "cli")).toBe(
      "--out (a saved plan) applies to one account: add --account NAME (one of eu, us)",
    );
    expect(accountSelectionMessage({ code: "one-only", setting: "websites-url", known }, "action")).toBe(
      "the websites-url input applies to one account: set the account input (one of eu, us), one leg per account as in examples/workflows/fleet.yml",
    );
  });

  it("says how to apply a saved plan of another account, and why two entries of one account may not prune", () => {
    expect(accountSelectionMessage({ code: "plan-account", planned: "eu", given: ["eu", "us"] }, "cli")).toBe(
      "the saved plan is the plan of account eu: leave out --account to apply it, or plan account us on its own: sitesync plan --account us --out plan.json",
    );
    expect(accountSelectionMessage({ code: "same-account", pruning: "eu", other: "eu2" }, "cli")).toContain(
      "with prune, eu would delete eu2's websites; make them one entry under accounts:",
    );
  });

  it("says how to give a key: export it (CLI), or the api-key input or a leg of its own (Action)", () => {
    expect(accountSelectionMessage({ code: "key-unset", keys: [{ account: "", env: "SITESYNC_API_KEY", api: "websites" }] }, "cli")).toBe(
      "SITESYNC_API_KEY is not set: export the API key of the account (Account → API) before running this command",
    );
    expect(
      accountSelectionMessage({ code: "key-unset", keys: [{ account: "", env: "SITESYNC_API_KEY", api: "websites" }] }, "action"),
    ).toBe("no API key: set the api-key input, e.g. `api-key: ${{ secrets.SITESYNC_API_KEY }}`");
    expect(
      accountSelectionMessage({ code: "key-unset", keys: [{ account: "us", env: "SITESYNC_US_API_KEY", api: "websites" }] }, "cli"),
    ).toBe("SITESYNC_US_API_KEY is not set: export the API key of account us (Account → API); or leave that account out with --account");
    expect(
      accountSelectionMessage({ code: "key-unset", keys: [{ account: "us", env: "SITESYNC_US_API_KEY", api: "websites" }] }, "action"),
    ).toBe(
      "SITESYNC_US_API_KEY is not set: run account us in a leg of its own (the account input, with its key as api-key), " +
        "or give the step its key: `env: { SITESYNC_US_API_KEY: ${{ secrets.SITESYNC_US_API_KEY }} }`",
    );
  });
});
