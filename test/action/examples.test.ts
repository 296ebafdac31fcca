/** The example workflows use only inputs and outputs that action.yml declares: a rename must update them. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { sitesync } from "../helpers/cli.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as {
  inputs: object;
  outputs: object;
  runs: { using: string; main: string };
};

interface Step {
  id?: string;
  uses?: string;
  with?: Record<string, unknown>;
}

function sitesyncSteps(file: string): { steps: Step[]; text: string } {
  const text = readFileSync(join(ROOT, "examples", "workflows", file), "utf8");
  const workflow = parse(text) as { jobs: Record<string, { steps: Step[] }> };
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps.filter((s) => s.uses?.includes("/sitesync@")));
  return { steps, text };
}

describe.each(["sitesync.yml", "drift.yml", "fleet.yml"])("examples/workflows/%s", (file) => {
  const { steps, text } = sitesyncSteps(file);

  it("passes only inputs that action.yml declares", () => {
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(Object.keys(step.with ?? {})));
  });

  it("reads only outputs that action.yml declares", () => {
    // Outputs of the sitesync steps only (fleet.yml also reads its own matrix step's).
    const ids = steps.map((s) => s.id).filter(Boolean);
    const read = [...text.matchAll(/steps\.([\w-]+)\.outputs\.([\w-]+)/g)].filter((m) => ids.includes(m[1])).map((m) => m[2]);
    // drift.yml is one step that acts on drift by itself (on-drift): it reads no output.
    if (file !== "drift.yml") expect(read.length).toBeGreaterThan(0);
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(read));
  });
});

it("action.yml runs the bundle on Node 24", () => {
  expect(action.runs).toEqual({ using: "node24", main: "dist/index.js" });
});

/**
 * `npx --yes sitesync` in a workflow would run whatever the registry serves under that name, with the API
 * key in the environment. No command a user copies from examples/ may fetch and run an unpinned package.
 */
describe("examples/ runs no unpinned package", () => {
  const files = readdirSync(join(ROOT, "examples"), { recursive: true, encoding: "utf8" }).filter((f) => /\.(ya?ml|sh)$/.test(f));
  const commands = (file: string): string[] => {
    const text = readFileSync(join(ROOT, "examples", file), "utf8");
    // A shell script's commands: its comments and quoted messages (which may tell a user what to install) aside.
    if (!file.startsWith("workflows/")) {
      return text
        .split("\n")
        .filter((line) => !line.trimStart().startsWith("#"))
        .map((line) => line.replace(/"(?:[^"\\]|\\.)*"/g, '""'));
    }
    const workflow = parse(text) as { jobs?: Record<string, { steps: { run?: string }[] }> };
    return Object.values(workflow.jobs ?? {}).flatMap((job) => job.steps.flatMap((step) => (step.run ?? "").split("\n")));
  };

  it.each(files)("%s", (file) => {
    const lines = commands(file);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line, `${file}: ${line}`).not.toMatch(/\b(npx|bunx|npm\s+exec|pnpm\s+dlx|yarn\s+dlx)\b/);
      // An install in a command must be a lockfile install (npm ci) or name an exact version.
      const install = /\bnpm\s+(?:install|i|add)\s+(?:-\S+\s+)*([^\s-]\S*)/.exec(line);
      if (install) expect(install[1], `${file}: ${line}`).toMatch(/@\d+\.\d+\.\d+$/);
    }
  });
});

/**
 * A leg's key by its own matrix entry: `matrix.account == 'eu' && secrets.EU || secrets.US` would give a third
 * account the us key, which may be valid for another account on the same server. Each leg of the fleet example
 * must pass the secret its own matrix entry names, for the matrix `sitesync matrix` prints.
 */
describe("examples/workflows/fleet.yml gives each leg its own account's key", () => {
  const workflow = parse(readFileSync(join(ROOT, "examples", "workflows", "fleet.yml"), "utf8")) as {
    jobs: { sitesync: { strategy: { matrix: string }; steps: Step[] } };
  };
  const job = workflow.jobs.sitesync;
  const step = job.steps.find((s) => s.uses?.includes("/sitesync@"))!;

  /** The secret an input reads for one leg, as GitHub resolves the forms a key may take; '' for a missing field. */
  function secretFor(input: unknown, leg: Record<string, string>): string {
    const expression = /^\$\{\{\s*(.*?)\s*\}\}$/.exec(String(input))?.[1] ?? "";
    const literal = /^secrets\.(\w+)$/.exec(expression);
    if (literal) return literal[1]!;
    const indexed = /^secrets\[\s*matrix\.(\w+)\s*\]$/.exec(expression);
    if (indexed) return leg[indexed[1]!] ?? "";
    throw new Error(`${expression} is not one secret: write secrets[matrix.api_key_env]`);
  }

  it("each of three accounts' legs reads the secret named as its own api_key_env, never another's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sitesync-fleet-example-"));
    try {
      mkdirSync(join(dir, "clients"));
      writeFileSync(
        join(dir, "sitesync.yaml"),
        [
          "version: 1",
          "accounts:",
          "  eu: { websites_url: https://stats.example.com, api_key_env: SITESYNC_EU_API_KEY }",
          "  us: { websites_url: https://stats.example.com, api_key_env: SITESYNC_US_API_KEY }",
          "  apac: { websites_url: https://stats.example.com }",
          'include: ["clients/*.yaml"]',
          "",
        ].join("\n"),
      );
      for (const account of ["eu", "us", "apac"]) {
        writeFileSync(join(dir, "clients", `${account}.yaml`), `account: ${account}\nwebsites:\n  - domain: ${account}.example.com\n`);
      }
      const result = await sitesync(["matrix"], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      const legs = (JSON.parse(result.stdout) as { include: Record<string, string>[] }).include;

      expect(job.strategy.matrix).toBe("${{ fromJSON(needs.accounts.outputs.matrix) }}");
      expect(step.with?.account).toBe("${{ matrix.account }}");
      const keys = legs.map((leg) => [leg.account, secretFor(step.with?.["api-key"], leg)]);
      expect(keys).toEqual([
        ["eu", "SITESYNC_EU_API_KEY"],
        ["us", "SITESYNC_US_API_KEY"],
        ["apac", "SITESYNC_API_KEY"],
      ]);
      // A projects key, if the example passes one, is the leg's own too.
      for (const leg of legs) {
        if (step.with?.["projects-api-key"] !== undefined)
          expect(secretFor(step.with["projects-api-key"], leg)).toBe(leg.projects_api_key_env);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
