/** The example workflows use only inputs and outputs that action.yml declares: a rename must update them. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

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
    expect(read.length).toBeGreaterThan(0);
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(read));
  });
});

it("action.yml runs the bundle on Node 24", () => {
  expect(action.runs).toEqual({ using: "node24", main: "dist/index.js" });
});

/**
 * Issue 20: `npx --yes sitesync` in drift.yml ran whatever the registry served under that name, with the API
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

  it("drift.yml's adopt mode runs the CLI of the ref the Action is pinned to", () => {
    const text = readFileSync(join(ROOT, "examples", "workflows", "drift.yml"), "utf8");
    expect(text).toContain("node .sitesync/bin/sitesync.js export --update sitesync.yaml");
    expect(text).toContain("ref: v1 # the same ref as `uses: your-org/sitesync@v1` above");
    expect(text).toContain("run: npm ci --prefix .sitesync --omit=dev --ignore-scripts");
  });
});
