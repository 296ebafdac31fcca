import { describe, expect, it } from "vitest";
import { adoptMessage } from "./adopt-words.ts";

const files = (n: number) => Array.from({ length: n }, (_, i) => `clients/c${i + 1}.yaml`);

describe("adoptMessage: why adopt cannot place new websites, and which --into to pass", () => {
  it("names the one file of a config of one file, and a second --into of one account", () => {
    expect(adoptMessage({ code: "into-one-file", path: "clients/a.yaml", root: "sitesync.yaml" })).toBe(
      "--into clients/a.yaml: the config is the one file sitesync.yaml, where new websites go; leave out --into",
    );
    expect(adoptMessage({ code: "into-twice" })).toBe(
      "--into is given twice: the config is one account, whose new websites go to one file",
    );
  });

  it("says which files take new websites when --into names a file the root does not include", () => {
    const problem = { code: "into-unknown" as const, path: "x.yaml", root: "sitesync.yaml", accounts: [], globs: ["clients/*.yaml"] };
    expect(adoptMessage({ ...problem, exists: true, takers: ["sitesync.yaml"] })).toBe(
      "--into x.yaml: not a file of this config (sitesync.yaml does not include it); new websites go to sitesync.yaml. " +
        'To start a client file, create one with "websites: []" at a path sitesync.yaml\'s include: globs match (clients/*.yaml)',
    );
    expect(adoptMessage({ ...problem, exists: false, takers: [], globs: [] })).toBe(
      "--into x.yaml: no such file; no file holds new websites yet. " +
        'To start a client file, create it with "websites: []" and add an include: glob for it to sitesync.yaml',
    );
  });

  it("names the account a new client file must say, or the accounts to choose from", () => {
    const problem = {
      code: "into-unknown" as const,
      path: "clients/n.yaml",
      exists: false,
      root: "sitesync.yaml",
      globs: ["clients/*.yaml"],
    };
    expect(adoptMessage({ ...problem, takers: ["clients/us.yaml"], accounts: ["us"] })).toContain(
      'new websites of account us go to clients/us.yaml. To start a client file, create it with "account: us" and "websites: []"',
    );
    expect(adoptMessage({ ...problem, takers: ["clients/eu.yaml", "clients/us.yaml"], accounts: ["eu", "us"] })).toContain(
      'new websites of accounts eu, us go to one of clients/eu.yaml, clients/us.yaml. To start a client file, create it with "account: NAME" (one of eu, us)',
    );
  });

  it("refuses a file of another account, or of none, naming the files of the accounts this run updates", () => {
    const accounts = [{ name: "eu", files: ["clients/eu-a.yaml", "clients/eu-b.yaml"] }];
    expect(adoptMessage({ code: "into-other-account", path: "clients/us.yaml", holder: "us", accounts })).toBe(
      "--into clients/us.yaml: the file holds websites of account us, and this run updates account eu (clients/eu-a.yaml, clients/eu-b.yaml): pass --into one of those files",
    );
    expect(adoptMessage({ code: "into-other-account", path: "sitesync.yaml", holder: undefined, accounts })).toContain(
      "--into sitesync.yaml: the file holds no account's websites (the root has several accounts)",
    );
  });

  it("refuses two files of one account: its new websites go to one", () => {
    expect(adoptMessage({ code: "into-many", account: "eu", paths: ["clients/eu-b.yaml", "clients/eu-a.yaml"] })).toBe(
      "--into names 2 files of account eu (clients/eu-b.yaml, clients/eu-a.yaml): its new websites go to one file",
    );
  });

  it("counts the live websites no file takes, in the singular and the plural, and says which --into to pass", () => {
    expect(adoptMessage({ code: "no-into", count: 1, account: "", intoGiven: false, files: [] })).toBe(
      "1 live website is listed in no file, and no file may take them",
    );
    expect(adoptMessage({ code: "no-into", count: 3, account: "eu", intoGiven: false, files: ["clients/eu-a.yaml"] })).toBe(
      "3 live websites of account eu are listed in no file, and the root file holds no account's websites (it has several accounts): pass --into one of its files (clients/eu-a.yaml)",
    );
    expect(adoptMessage({ code: "no-into", count: 2, account: "us", intoGiven: true, files: [] })).toBe(
      "2 live websites of account us are listed in no file, and --into names no file of this account: include a file that says account: us",
    );
  });

  it("names at most ten files, then how many more", () => {
    const message = adoptMessage({ code: "no-into", count: 1, account: "eu", intoGiven: false, files: files(12) });
    expect(message).toContain(`(${files(10).join(", ")} and 2 more)`);
    expect(message).not.toContain("c11.yaml");
  });
});
