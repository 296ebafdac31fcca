/**
 * Every example workflow works from its first run, in every job: each file under examples/workflows/, run as
 * GitHub would run it (run-workflow.ts) through the story of a repository that has just installed it: the
 * scheduled and manual runs on main, a pull request that edits the config, its merge, and the scheduled and
 * manual runs after. This Action runs from its committed bundle against the sandbox and the fake GitHub;
 * `run:` steps run the CLI of this checkout. Any job that fails, fails the test with its steps' logs.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { workdir } from "../helpers/cli.ts";
import { domainsOf } from "../helpers/domains.ts";
import { type JobRun, runWorkflow, type WorkflowEvent } from "./run-workflow.ts";
import { fleetWorld, oneAccountWorld, type World } from "./workflow-world.ts";

const FOLDER = fileURLToPath(new URL("../../examples/workflows/", import.meta.url));
const FILES = readdirSync(FOLDER).filter((name) => /\.ya?ml$/.test(name));
const REPOSITORY = { full_name: "acme/sites", name: "sites", owner: { login: "acme" }, default_branch: "main" };

interface Workflow {
  on: { workflow_dispatch?: { inputs?: Record<string, { type?: string; options?: string[]; default?: unknown }> } } | string | string[];
  jobs: Record<string, { strategy?: { matrix?: unknown } }>;
}
const workflowOf = (file: string) => parse(readFileSync(join(FOLDER, file), "utf8")) as Workflow;
/** A workflow whose jobs fan out over a matrix runs in a fleet's repository; any other in one account's. */
const isFleet = (file: string) => Object.values(workflowOf(file).jobs).some((job) => job.strategy?.matrix !== undefined);

/** Every combination of a manual run's inputs: each option of a choice, both values of a boolean, else the default. */
function dispatchInputs(file: string): Record<string, string | boolean>[] {
  const on = workflowOf(file).on;
  const inputs = typeof on === "object" && !Array.isArray(on) ? (on.workflow_dispatch?.inputs ?? {}) : {};
  let combinations: Record<string, string | boolean>[] = [{}];
  for (const [name, input] of Object.entries(inputs)) {
    const values =
      input.type === "boolean" ? [false, true] : input.type === "choice" ? (input.options ?? []) : [String(input.default ?? "")];
    combinations = combinations.flatMap((combination) => values.map((value) => ({ ...combination, [name]: value })));
  }
  return combinations;
}

/** The events of the story, in order, each with the files it runs. */
function story(world: World, files: string[]): { label: string; files: string[]; event: (file: string) => WorkflowEvent[] }[] {
  const { base, head, merge } = world.commits;
  const onMain =
    (sha: string) =>
    (file: string): WorkflowEvent[] => [
      { name: "schedule", sha, ref: "refs/heads/main", payload: { schedule: "17 6 * * *", repository: REPOSITORY } },
      ...dispatchInputs(file).map((inputs) => ({
        name: "workflow_dispatch" as const,
        sha,
        ref: "refs/heads/main",
        inputs,
        payload: {
          inputs: Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, String(v)])),
          ref: "refs/heads/main",
          repository: REPOSITORY,
        },
      })),
    ];
  const pullRequest = {
    number: 7,
    head: { sha: head, ref: "pr-7", repo: { full_name: "acme/sites" } },
    base: { sha: base, ref: "main", repo: { full_name: "acme/sites" } },
  };
  return [
    { label: "main, before the pull request", files, event: onMain(base) },
    {
      label: "pull request 7",
      files,
      event: () => [
        {
          name: "pull_request",
          sha: head,
          ref: "refs/pull/7/merge",
          changed: world.changed,
          payload: { action: "synchronize", number: 7, pull_request: pullRequest, repository: REPOSITORY },
        },
      ],
    },
    {
      label: "the merge of pull request 7",
      files,
      event: () => [
        {
          name: "push",
          sha: merge,
          ref: "refs/heads/main",
          changed: world.changed,
          payload: { ref: "refs/heads/main", before: base, after: merge, repository: REPOSITORY },
        },
      ],
    },
    { label: "main, after the merge", files, event: onMain(merge) },
  ];
}

/** Runs the story; returns every job run, labelled, and the failures with their steps' logs. */
async function tell(world: World, files: string[]): Promise<{ runs: (JobRun & { file: string; when: string })[]; failures: string[] }> {
  const runs: (JobRun & { file: string; when: string })[] = [];
  for (const chapter of story(world, files)) {
    // GitHub's record of the pull request as merged, once it is (the apply on the push looks it up).
    if (chapter.label.startsWith("the merge"))
      world.github.pulls.push({ number: 7, headSha: world.commits.head, mergeCommitSha: world.commits.merge });
    for (const file of chapter.files) {
      for (const event of chapter.event(file)) {
        const when = `${chapter.label}: ${event.name}${event.inputs ? ` ${JSON.stringify(event.inputs)}` : ""}`;
        for (const run of await runWorkflow(join(FOLDER, file), event, world)) runs.push({ ...run, file, when });
      }
    }
  }
  const failures = runs
    .filter((run) => run.status === "failure")
    .map((run) =>
      [
        `${run.file}, ${run.when}: job ${run.job}${run.leg ? ` ${JSON.stringify(run.leg)}` : ""} failed`,
        ...run.steps.map((s) => `  ${s.status} ${s.name} [${s.how}]\n${s.status === "failure" ? s.log : ""}`),
      ].join("\n"),
    );
  return { runs, failures };
}

/** Each job of each file ran (not only skipped) somewhere in the story. */
function jobsRun(files: string[], runs: { file: string; job: string; status: string }[]): string[] {
  return files.flatMap((file) =>
    Object.keys(workflowOf(file).jobs).map(
      (job) => `${file}: ${job}: ${runs.some((r) => r.file === file && r.job === job && r.status !== "skipped") ? "ran" : "never ran"}`,
    ),
  );
}

describe.each([
  { layout: "one account", files: FILES.filter((f) => !isFleet(f)), start: oneAccountWorld },
  { layout: "a fleet", files: FILES.filter(isFleet), start: fleetWorld },
])("examples/workflows in $layout's repository", ({ files, start }) => {
  it(`${files.join(", ")}: every job runs green from the first run, through a pull request and its merge`, {
    timeout: 300_000,
  }, async () => {
    expect(files.length).toBeGreaterThan(0);
    const world = await start();
    try {
      const { runs, failures } = await tell(world, files);
      expect(failures).toEqual([]);
      // No secret in any step's output, but in the runner's own ::add-mask:: commands that hide it.
      const shown = runs.flatMap((run) =>
        run.steps.flatMap((step) => step.log.split("\n").filter((line) => !line.startsWith("::add-mask::"))),
      );
      for (const secret of Object.values(world.secrets)) expect(shown.filter((line) => line.includes(secret))).toEqual([]);
      expect(jobsRun(files, runs)).toEqual(jobsRun(files, runs).map((line) => line.replace(/never ran$/, "ran")));
      // The merge applied what the pull request planned: the accounts match the merged config.
      const accounts = Object.fromEntries(Object.entries(world.accounts).map(([name, sandbox]) => [name, domainsOf(sandbox)]));
      if (world.accounts[""]) {
        expect(accounts[""]).toEqual(["blog.example.com", "example.com", "shop.example.com"]);
        expect(world.accounts[""].store.findWebsite("blog.example.com")?.privacy).toBe(1);
      } else {
        expect(accounts).toEqual({ eu: ["acme.com", "shop.acme.com"], us: ["cora.com"] });
      }
    } finally {
      await world.close();
    }
  });
});

describe("the workflow runner", () => {
  it("refuses a step it cannot honour, and a key it does not read, instead of passing over them", async () => {
    const world = await oneAccountWorld();
    try {
      const dir = workdir();
      const event: WorkflowEvent = { name: "schedule", sha: world.commits.base, ref: "refs/heads/main", payload: {} };
      const workflow = (step: string) => {
        const file = join(dir, "w.yml");
        writeFileSync(
          file,
          `on: schedule\njobs:\n  one:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v5\n${step}`,
        );
        return runWorkflow(file, event, world);
      };
      await expect(workflow("      - uses: someone/else@v1\n")).rejects.toThrow("the runner cannot honour uses: someone/else@v1");
      await expect(workflow("      - run: echo hi\n        working-directory: sub\n")).rejects.toThrow(
        "does not honour working-directory:",
      );
      await expect(workflow("      - run: echo hi\n        shell: pwsh\n")).rejects.toThrow("cannot run a step with shell: pwsh");
      const [run] = await workflow("      - run: test -f sitesync.yaml && exit 3\n");
      expect(run).toMatchObject({ job: "one", status: "failure", steps: [{ status: "success" }, { status: "failure", log: "exit 3\n" }] });
    } finally {
      await world.close();
    }
  });
});
