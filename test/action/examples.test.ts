/** The example workflows use only inputs and outputs that action.yml declares: a rename must update them. */
import { readFileSync } from "node:fs";
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

describe.each(["sitesync.yml", "drift.yml"])("examples/workflows/%s", (file) => {
  const { steps, text } = sitesyncSteps(file);

  it("passes only inputs that action.yml declares", () => {
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(Object.keys(step.with ?? {})));
  });

  it("reads only outputs that action.yml declares", () => {
    const read = [...text.matchAll(/steps\.[\w-]+\.outputs\.([\w-]+)/g)].map((m) => m[1]);
    expect(read.length).toBeGreaterThan(0);
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(read));
  });
});

it("action.yml runs the bundle on Node 24", () => {
  expect(action.runs).toEqual({ using: "node24", main: "dist/index.js" });
});
