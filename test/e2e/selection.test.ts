/** `--target` / `--exclude` and `sitesync show`, end to end: the real CLI against the sandbox over real HTTP. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/plan/types.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { domainsOf } from "../helpers/domains.ts";
import { HEADER, sitesync, sitesyncMany, workdir } from "./helpers.ts";

let sandbox: Sandbox;
let env: Record<string, string>;

beforeEach(async () => {
  sandbox = await startSandbox({
    rateLimit: 0,
    websites: [
      { domain: "a1.example.com", privacy: 0 },
      { domain: "a2.example.com", privacy: 0 },
      { domain: "b1.example.com", privacy: 0 },
      { domain: "a-stray.example.com" },
      { domain: "b-stray.example.com" },
    ],
  });
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
});
afterEach(() => sandbox.close());

// Every listed site drifts (privacy), a3 and b2 are new, and with prune both strays would go.
const config =
  HEADER +
  `policy:
  prune: true
websites:
  - domain: a1.example.com
    privacy: private
  - domain: a2.example.com
    privacy: private
  - domain: a3.example.com
  - domain: b1.example.com
    privacy: private
  - domain: b2.example.com
`;

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

describe("show on a file that is not an intact plan", () => {
  it("exits 4 for a plan edited after it was saved, 1 for a file that is not a plan or cannot be read", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    expect((await sitesync(["plan", "--target", "a*", "--out", "p.json"], { env, cwd: dir })).code).toBe(0);
    const plan = JSON.parse(readFileSync(join(dir, "p.json"), "utf8")) as Plan;
    writeFileSync(join(dir, "tampered.json"), JSON.stringify({ ...plan, selection: { target: ["*"], exclude: [] } }));
    writeFileSync(join(dir, "other.json"), JSON.stringify({ hello: "world" }));
    const [tampered, other, missing] = await sitesyncMany(
      [
        ["show", "tampered.json"],
        ["show", "other.json"],
        ["show", "nope.json"],
      ],
      { cwd: dir },
    );
    expect(tampered!.code).toBe(4);
    expect(tampered!.stderr).toContain("error: tampered.json was changed after it was saved (its hash does not match): plan again");
    expect(tampered!.stdout).toBe("");
    expect(other!.code).toBe(1);
    expect(other!.stderr).toContain("other.json is not a plan saved by this version of `sitesync plan --out`");
    expect(missing!.code).toBe(1);
    expect(missing!.stderr).toContain("cannot read the plan file nope.json: no such file");
  });

  it("notes a config that changed since the plan, and still shows it", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    expect((await sitesync(["plan", "--out", "p.json"], { env, cwd: dir })).code).toBe(0);
    writeFileSync(join(dir, "sitesync.yaml"), `${config}  - domain: c.example.com\n`);
    const shown = await sitesync(["show", "p.json"], { cwd: dir });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("+ create  a3.example.com");
    expect(shown.stderr).toContain("note: sitesync.yaml changed since this plan was made: `sitesync apply p.json` would refuse it");
  });
});
