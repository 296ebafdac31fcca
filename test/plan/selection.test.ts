/**
 * `--target` / `--exclude` end to end, through plan, show and apply of the saved plan: the real CLI against the
 * sandbox over real HTTP (show of a file that is not an intact plan: test/show/).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/plan/types.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { AB_CONFIG, startAbSandbox } from "../helpers/ab-account.ts";
import { HEADER, sitesync, sitesyncMany, workdir } from "../helpers/cli.ts";
import { domainsOf } from "../helpers/domains.ts";

let sandbox: Sandbox;
let env: Record<string, string>;

beforeEach(async () => {
  sandbox = await startAbSandbox();
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
});
afterEach(() => sandbox.close());

const config = AB_CONFIG;

const privacyOf = (domain: string) => sandbox.store.websites().find((w) => w.domain === domain)?.privacy;
const domains = () => domainsOf(sandbox);

describe("plan --target → show → apply plan.json", () => {
  it("plans, shows and applies only the selected websites, and says everywhere that the plan is partial", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    const planned = await sitesync(["plan", "--target", "a*.example.com", "--exclude", "a2.*", "--out", "p.json"], { env, cwd: dir });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout.split("\n")[0]).toBe("PARTIAL PLAN: --target 'a*.example.com' --exclude 'a2.*'");
    expect(planned.stdout).toContain("+ create  a3.example.com");
    expect(planned.stdout).toContain("- delete  a-stray.example.com");
    expect(planned.stdout).not.toMatch(/a2\.example|b1\.example|b2\.example|b-stray/);

    const saved = JSON.parse(readFileSync(join(dir, "p.json"), "utf8")) as Plan;
    expect(saved.selection).toEqual({ target: ["a*.example.com"], exclude: ["a2.*"] });

    // show needs neither the key nor the config.
    const shown = await sitesyncMany(
      [
        ["show", "p.json"],
        ["show", "p.json", "--format", "markdown"],
        ["show", "p.json", "--format", "json"],
      ],
      { cwd: dir },
    );
    for (const r of shown) expect(r.code, r.stderr).toBe(0);
    const [text, markdown, json] = shown.map((r) => r.stdout) as [string, string, string];
    expect(text).toBe(planned.stdout);
    expect(text.trimEnd().split("\n").at(-1)).toContain("PARTIAL PLAN: --target 'a*.example.com' --exclude 'a2.*'");
    expect(markdown).toContain("> **Partial plan: --target a\\*.example.com --exclude a2.\\*.**");
    expect(markdown).toContain("| a3.example.com | privacy | public |");
    expect(JSON.parse(json)).toEqual(saved);
    expect(sandbox.stats().writeRequests).toBe(0);

    // --verify re-plans inside the recorded selection: the sites left out still differ, and that is not a failure.
    const applied = await sitesync(["apply", "p.json", "--verify", "--auto-approve"], { env, cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain("Verified");
    expect(applied.stderr).toContain("PARTIAL PLAN: --target 'a*.example.com' --exclude 'a2.*'");
    expect(privacyOf("a1.example.com")).toBe(1);
    expect(privacyOf("a2.example.com")).toBe(0);
    expect(privacyOf("b1.example.com")).toBe(0);
    expect(domains()).toEqual(["a1.example.com", "a2.example.com", "a3.example.com", "b-stray.example.com", "b1.example.com"]);
  });

  it("refuses --target or --exclude on the command line with a saved plan, before anything is read or written", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    expect((await sitesync(["plan", "--target", "a1.*", "--out", "p.json"], { env, cwd: dir })).code).toBe(0);
    const runs = await sitesyncMany(
      [
        ["apply", "p.json", "--target", "b*"],
        ["apply", "p.json", "--exclude=a1.*"],
      ],
      { env, cwd: dir },
    );
    for (const r of runs) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/--(target|exclude) changes what is planned, not a saved plan/);
    }
    // The suggested command names the pattern, quoted for the shell, so that it can be run as it is.
    expect(runs[0]!.stderr).toContain("run `sitesync plan --target 'b*' --out plan.json` again");
    expect(runs[1]!.stderr).toContain("run `sitesync plan --exclude 'a1.*' --out plan.json` again");
    expect(sandbox.stats().writeRequests).toBe(0);
  });
});

describe("apply --exclude", () => {
  it("leaves the excluded websites alone and applies the rest", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    const applied = await sitesync(["apply", "--auto-approve", "--exclude", "b*", "--exclude", "a-stray.example.com"], { env, cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain("PARTIAL PLAN: --exclude 'b*' --exclude 'a-stray.example.com'");
    expect(privacyOf("a1.example.com")).toBe(1);
    expect(privacyOf("a2.example.com")).toBe(1);
    expect(privacyOf("b1.example.com")).toBe(0);
    expect(domains()).toEqual([
      "a-stray.example.com",
      "a1.example.com",
      "a2.example.com",
      "a3.example.com",
      "b-stray.example.com",
      "b1.example.com",
    ]);
  });
});

describe("a --target pattern", () => {
  it("does not warn about a --target pattern that matches only websites in the account", async () => {
    const own = await startSandbox({ rateLimit: 0, websites: [{ domain: "shop.example.com" }, { domain: "legacy.example.org" }] });
    try {
      const ownEnv = { SITESYNC_API_KEY: own.apiKey, SITESYNC_WEBSITES_URL: own.url };
      const dir = workdir({ "sitesync.yaml": `${HEADER}websites:\n  - domain: shop.example.com\n` });
      const run = await sitesync(["plan", "--target", "legacy.*"], { env: ownEnv, cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout + run.stderr).not.toContain("matches no website");
      const typo = await sitesync(["plan", "--target", "legasy.*"], { env: ownEnv, cwd: dir });
      expect(typo.stdout + typo.stderr).toContain('--target "legasy.*" matches no website');
    } finally {
      await own.close();
    }
  });
});
