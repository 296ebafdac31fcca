/**
 * One check run per account on pull requests and pushes (DESIGN §7, "Check runs"): branch protection can
 * require it, and its annotations sit at the config line of each change, apart from every other step's. Its
 * output is the account's report, each part under the Checks API's 65,535 characters; its annotations go 50 per
 * request (the API's bound), the first with the check run and the rest as updates. Without `checks: write` the
 * annotations go on the step, as they did before, with a warning (github-write.ts).
 */
import * as core from "@actions/core";
import { checkAnnotationsCutNote, checkRunName } from "../render/index.ts";
import { annotateStep, type ChangeAnnotation, changeAnnotations } from "./annotations.ts";
import { checkOutput } from "./compose.ts";
import { type Octokit, type Repo, writeToGitHub } from "./github-write.ts";
import type { AccountReport, ActionReport, RunContext } from "./run-context.ts";

/** The Checks API takes at most 50 annotations per request. */
const PER_REQUEST = 50;
/** Annotations per check run: 20 requests at most (DESIGN §12: every loop has a bound). */
const MAX_ANNOTATIONS = 1_000;

type Conclusion = "success" | "neutral" | "failure";

/**
 * An account's conclusion: `failure` for an error, a refusal or an apply that did not apply everything, `neutral`
 * for a plan with changes, else `success`.
 */
function conclusionOf(command: string, own: AccountReport): Conclusion {
  const { exitCode } = own.report;
  if (exitCode !== 0 && exitCode !== 2) return "failure";
  return command !== "apply" && (own.plan?.changes.length ?? 0) > 0 ? "neutral" : "success";
}

/** The check runs of this run, or the step's annotations when there are none. */
export async function writeCheckRuns(ctx: RunContext, outcome: ActionReport): Promise<void> {
  const { workspace } = ctx.event;
  const annotations = new Map(
    outcome.accounts.map((own) => [own.account, changeAnnotations(own.plan?.changes ?? [], own.failed ?? [], workspace)]),
  );
  const headSha = ctx.event.pullRequest?.headSha ?? (ctx.event.name === "push" ? ctx.event.sha : undefined);
  const wanted = headSha !== undefined && !outcome.offline;
  const where = {
    refused: "Could not create the check runs",
    failed: "could not write the check runs",
    permission: "checks: write",
    fallback: "The outcome is in the job summary; its changes are annotated on this step.",
  };
  const written =
    wanted && (await writeToGitHub(ctx, where, (octokit, repo) => createAll(ctx, { octokit, repo, headSha }, outcome, annotations)));
  if (!written) for (const list of annotations.values()) annotateStep(list);
}

interface Target {
  octokit: Octokit;
  repo: Repo;
  headSha: string;
}

async function createAll(
  ctx: RunContext,
  target: Target,
  outcome: ActionReport,
  annotations: Map<string, ChangeAnnotation[]>,
): Promise<true> {
  for (const own of outcome.accounts) {
    const url = await createOne(ctx, target, own, annotations.get(own.account) ?? []);
    core.info(`Created the check run ${checkRunName(ctx.inputs.command, own.account)}: ${url}`);
  }
  return true;
}

/** One account's check run: created with its first annotations, the others added by updates. */
async function createOne(
  ctx: RunContext,
  { octokit, repo, headSha }: Target,
  own: AccountReport,
  all: readonly ChangeAnnotation[],
): Promise<string> {
  const placed = all.filter((a) => a.file !== undefined && a.startLine !== undefined).slice(0, MAX_ANNOTATIONS);
  const cut = all.length > placed.length ? `\n\n${checkAnnotationsCutNote(placed.length, all.length)}` : "";
  const { summary, text } = checkOutput(own.report, ctx.event.runUrl, cut);
  const title = ctx.redactor.redact(own.title ?? checkRunName(ctx.inputs.command, own.account));
  const output = { title, summary: ctx.redactor.redact(summary), ...(text ? { text: ctx.redactor.redact(text) } : {}) };
  const batches = Array.from({ length: Math.ceil(placed.length / PER_REQUEST) }, (_, i) =>
    placed.slice(i * PER_REQUEST, (i + 1) * PER_REQUEST).map((a) => apiAnnotation(a, ctx)),
  );
  const { data } = await octokit.rest.checks.create({
    ...repo,
    name: checkRunName(ctx.inputs.command, own.account),
    head_sha: headSha,
    status: "completed",
    conclusion: conclusionOf(ctx.inputs.command, own),
    completed_at: new Date().toISOString(),
    ...(ctx.event.runUrl ? { details_url: ctx.event.runUrl } : {}),
    output: { ...output, annotations: batches[0] ?? [] },
  });
  for (const batch of batches.slice(1))
    await octokit.rest.checks.update({ ...repo, check_run_id: data.id, output: { ...output, annotations: batch } });
  return data.html_url ?? String(data.id);
}

/** An annotation as the Checks API takes it: a column only on a one-line span (the API's rule). */
function apiAnnotation(a: ChangeAnnotation, ctx: RunContext) {
  const line = a.startLine ?? 1;
  return {
    path: a.file ?? "",
    start_line: line,
    end_line: line,
    ...(a.startColumn === undefined ? {} : { start_column: a.startColumn, end_column: a.startColumn }),
    annotation_level: a.level,
    title: a.title,
    message: ctx.redactor.redact(a.message),
  };
}
