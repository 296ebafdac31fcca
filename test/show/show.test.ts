/** `sitesync show plan.json` on a file that is not an intact plan, or whose config changed: the real CLI against the sandbox over real HTTP. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Plan } from "../../src/plan/types.ts";
import type { Sandbox } from "../../src/sandbox/index.ts";
import { AB_CONFIG, startAbSandbox } from "../helpers/ab-account.ts";
import { sitesync, sitesyncMany, workdir } from "../helpers/cli.ts";

let sandbox: Sandbox;
let env: Record<string, string>;

beforeEach(async () => {
  sandbox = await startAbSandbox();
  env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
});
afterEach(() => sandbox.close());

const config = AB_CONFIG;

describe("show on a file that is not an intact plan", () => {
  it("exits 4 for a plan edited after it was saved, 1 for a file that is not a plan or cannot be read", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    expect((await sitesync(["plan", "--target", "a*", "--out", "p.json"], { env, cwd: dir })).code).toBe(0);
    const plan = JSON.parse(readFileSync(join(dir, "p.json"), "utf8")) as Plan;
    writeFileSync(join(dir, "tampered.json"), JSON.stringify({ ...plan, selection: { target: ["*"], exclude: [] } }));
    writeFileSync(join(dir, "other.json"), JSON.stringify({ hello: "world" }));
    const [tampered, other, missing, none] = await sitesyncMany(
      [["show", "tampered.json"], ["show", "other.json"], ["show", "nope.json"], ["show"]],
      { cwd: dir },
    );
    expect(tampered!.code).toBe(4);
    expect(tampered!.stderr).toContain("error: tampered.json was changed after it was saved (its hash does not match): plan again");
    expect(tampered!.stdout).toBe("");
    expect(other!.code).toBe(1);
    expect(other!.stderr).toContain("other.json is not a plan saved by this version of `sitesync plan --out`");
    expect(missing!.code).toBe(1);
    expect(missing!.stderr).toContain("cannot read the plan file nope.json: no such file");
    expect(none!.code).toBe(1);
    expect(none!.stderr).toBe(
      "error: show takes the path of a saved plan: sitesync show plan.json (saved by sitesync plan --out plan.json)\n",
    );
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

describe("show's formats", () => {
  it("offers text, json and markdown, and refuses events (the stream of a run, not of a saved plan)", async () => {
    const dir = workdir({ "sitesync.yaml": config });
    expect((await sitesync(["plan", "--out", "p.json"], { env, cwd: dir })).code).toBe(0);
    const [events, help] = await sitesyncMany(
      [
        ["show", "p.json", "--format", "events"],
        ["show", "--help"],
      ],
      { cwd: dir },
    );
    expect(events!.code).toBe(1);
    expect(events!.stderr).toContain('--format must be text, json or markdown, not "events"');
    expect(events!.stdout).toBe("");
    expect(help!.stdout).toContain("--format=<text|json|markdown>");
  });
});
