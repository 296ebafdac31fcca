/** The Action's step outputs (action.yml), from the run's Outcome, and the plan files the outputs name. */
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as core from "@actions/core";
import type { Plan } from "../plan/types.ts";
import { worstReviewStatus } from "../run/review-status.ts";
import type { Outcome } from "../run/types.ts";
import { writeOutput } from "../run/write-file.ts";
import type { RunContext } from "./run-context.ts";

/**
 * The plan as JSON (it holds no secret of ours: DESIGN §3; a live name echoing a key is redacted string by
 * string), named by its hash so two configs never collide.
 */
export function savePlan(plan: Plan, ctx: RunContext): string {
  const file = join(ctx.env.RUNNER_TEMP || tmpdir(), `sitesync-plan-${plan.hash.slice(0, 8)}.json`);
  writeOutput(file, `${ctx.redactor.json(plan)}\n`);
  return file;
}

/** The step's outputs, summed over its accounts (a leg has one). */
export function setOutputs(outcome: Outcome, planFiles: ReadonlyMap<string, string>, unreviewed: boolean): void {
  const plans = outcome.accounts.flatMap((account) => (account.plan ? [account.plan] : []));
  const sum = (count: (plan: Plan) => number) => plans.reduce((total, plan) => total + count(plan), 0);
  if (plans.length > 0) {
    core.setOutput("has-changes", String(plans.some((plan) => plan.changes.length > 0)));
    core.setOutput(
      "creates",
      sum((plan) => plan.summary.create),
    );
    core.setOutput(
      "updates",
      sum((plan) => plan.summary.update),
    );
    core.setOutput(
      "deletes",
      sum((plan) => plan.summary.delete),
    );
  }
  const [planFile] = planFiles.size === 1 ? planFiles.values() : [];
  if (planFile) core.setOutput("plan-file", planFile);
  if (outcome.resultsFile) core.setOutput("results-file", outcome.resultsFile);
  if (outcome.command === "apply") setReviewOutputs(outcome, unreviewed);
  if (outcome.command === "drift") setDriftOutput(outcome);
}

/** `drifted`: an account differs from the config; `false` only when every account's drift check ran to its end. */
function setDriftOutput(outcome: Outcome): void {
  const drifted = outcome.accounts.some((account) => (account.plan?.changes.length ?? 0) > 0);
  const known =
    outcome.error === undefined && outcome.accounts.every((account) => account.plan !== undefined && account.error === undefined);
  if (drifted || known) core.setOutput("drifted", String(drifted));
}

/** How the review went (run/review-status.ts decides it, account by account; a step of many says the worst). */
function setReviewOutputs(outcome: Outcome, unreviewed: boolean): void {
  const reviews = outcome.accounts.flatMap((account) => (account.review ? [account.review] : []));
  const status = unreviewed ? "unreviewed" : worstReviewStatus(reviews.map((review) => review.status));
  const missing = reviews.find((review) => review.problem?.code === "missing")?.problem;
  const count = (reason: "applied" | "not-reviewed") =>
    outcome.accounts.reduce(
      (total, account) =>
        total + (reason === "applied" ? (account.results?.counts.applied ?? 0) : account.skipped.filter((i) => i.reason === reason).length),
      0,
    );
  core.setOutput("review-status", status);
  if (status === "missing" && missing?.code === "missing") core.setOutput("review-missing", missing.missing.code);
  core.setOutput("reviewed", String(status === "applied" || status === "partial"));
  core.setOutput("not-applied", count("not-reviewed"));
  core.setOutput("applied", count("applied"));
}

/** A file in the runner's temporary folder named after `key` (the config, the account): two steps of one job never share it. */
export function runnerFile(ctx: RunContext, prefix: string, key: string): string {
  return join(ctx.env.RUNNER_TEMP || tmpdir(), `${prefix}-${createHash("sha256").update(key).digest("hex").slice(0, 8)}.json`);
}
