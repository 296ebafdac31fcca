/**
 * A workflow file of examples/ run as GitHub runs it, for the steps an example may hold: `actions/checkout` (the
 * test's workspace is the checkout) and the sitesync Action (the committed bundle, through run-action.ts). The
 * `${{ }}` expressions it uses are evaluated as GitHub does: `secrets.X`, `vars.X`, `inputs.x`, `github.token`,
 * quoted literals and `||` (an unset value is empty, which `||` passes over); any other expression, step or
 * trigger fails the test, so an example cannot grow what this does not check. The workflow's `permissions:`
 * become the fake GitHub's grants.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import type { FakeGitHub } from "./fake-github.ts";
import type { Permission } from "./fake-github-repo.ts";
import { type ActionRun, GITHUB_TOKEN, runAction } from "./run-action.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}

interface Workflow {
  on: Record<string, unknown>;
  env?: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, { steps: Step[]; env?: Record<string, unknown> }>;
}

export interface Trigger {
  /** `schedule` or `workflow_dispatch`, with the dispatch's inputs. */
  event: "schedule" | "workflow_dispatch";
  inputs?: Record<string, string>;
  secrets: Record<string, string>;
  vars?: Record<string, string>;
  workspace: string;
  github: FakeGitHub;
  /** What the runner sets: `GITHUB_SHA`, `GITHUB_REF`. */
  runner: Record<string, string>;
}

/** The text of an example workflow. */
export function workflowText(file: string): string {
  return readFileSync(join(ROOT, "examples", "workflows", file), "utf8");
}

/** Runs every job of `file` for `trigger`; the sitesync steps' runs, in order. */
export async function runWorkflow(file: string, trigger: Trigger): Promise<ActionRun[]> {
  const workflow = parse(workflowText(file)) as Workflow;
  if (!(trigger.event in workflow.on)) throw new Error(`${file} does not run on ${trigger.event}`);
  trigger.github.repo.grants = new Set(
    Object.entries(workflow.permissions ?? {}).flatMap(([name, level]) => (level === "write" ? [name as Permission] : [])),
  );
  const runs: ActionRun[] = [];
  for (const job of Object.values(workflow.jobs)) {
    for (const step of job.steps) {
      if (step.uses?.startsWith("actions/checkout@") && !step.with) continue;
      if (!step.uses?.includes("/sitesync@") || step.run)
        throw new Error(`${file}: a step this runner does not know: ${JSON.stringify(step)}`);
      const env = evaluateAll({ ...workflow.env, ...job.env, ...step.env }, trigger);
      runs.push(
        await runAction({
          workspace: trigger.workspace,
          inputs: evaluateAll(step.with ?? {}, trigger),
          event: {
            name: trigger.event,
            payload: trigger.event === "workflow_dispatch" ? { inputs: trigger.inputs ?? {} } : { schedule: "17 6 * * *" },
          },
          env: { ...env, ...trigger.runner },
          githubApiUrl: trigger.github.url,
        }),
      );
    }
  }
  return runs;
}

function evaluateAll(values: Record<string, unknown>, trigger: Trigger): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, evaluate(String(value), trigger)]));
}

/** A value with its `${{ }}` expressions replaced by what GitHub would put there. */
function evaluate(text: string, trigger: Trigger): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_all, expression: string) => {
    for (const operand of expression.split(/\s*\|\|\s*/)) {
      const value = operandValue(operand, trigger);
      if (value !== "") return value;
    }
    return "";
  });
}

function operandValue(operand: string, trigger: Trigger): string {
  const literal = /^'([^']*)'$/.exec(operand);
  if (literal) return literal[1]!;
  const [context, name, ...rest] = operand.split(".");
  if (rest.length > 0 || name === undefined) throw new Error(`an expression this runner does not know: ${operand}`);
  if (context === "secrets") return trigger.secrets[name] ?? "";
  if (context === "vars") return trigger.vars?.[name] ?? "";
  if (context === "inputs") return trigger.event === "workflow_dispatch" ? (trigger.inputs?.[name] ?? "") : "";
  if (context === "github" && name === "token") return GITHUB_TOKEN;
  throw new Error(`an expression this runner does not know: ${operand}`);
}
