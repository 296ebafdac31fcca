/**
 * `apply` executes a Plan and nothing else (DESIGN §1, §6): it never computes a change of its own, so a plan
 * that was reviewed is the plan that runs. Creates, then updates, then deletes; every request goes through
 * the client's one scheduler, which bounds concurrency and paces to the rate limit. A change flagged as
 * needing a secret the config does not set is never sent (`needs-secret`).
 */
import type { Client } from "../api/types.ts";
import { ApiError, InternalError, SafetyError } from "../errors.ts";
import { needsSecret } from "../plan/secret-need.ts";
import type { Change, Plan } from "../plan/types.ts";
import { createWebsite, deleteProject, deleteWebsite, errorOf, updateWebsite } from "./changes.ts";
import { countItems } from "./count-items.ts";
import type { ApplyOptions, ApplyResult, ItemResult } from "./types.ts";

const PHASES = ["create", "update", "delete"] as const;

/**
 * A plan that sends a password the caller cannot give (a saved plan applied with another config, a library
 * caller's `passwordOf` missing one) is refused before any request: half an apply would be worse.
 */
function refuseMissingPasswords(plan: Plan, options: ApplyOptions): void {
  const missing = plan.changes.flatMap((c) =>
    (c.action === "create" || c.action === "update") &&
    !needsSecret(c) &&
    c.fields.some((f) => f.field === "password") &&
    options.passwordOf(c.domain) === undefined
      ? [c.domain]
      : [],
  );
  if (missing.length === 0) return;
  const domains = missing.join(", ");
  throw new SafetyError(
    "password-unavailable",
    `the plan sends a password for ${domains}, but none was given for ${missing.length === 1 ? "it" : "them"}: ` +
      "apply with the config the plan was made from, with its password variables set; nothing was sent",
  );
}

/** Applies every change of `plan` through `client`. One failure never stops the others; a 401/403 stops all. */
export async function apply(plan: Plan, client: Client, options: ApplyOptions): Promise<ApplyResult> {
  if (plan.refusals.length > 0) {
    throw new InternalError(`apply was given a refused plan (${plan.refusals.map((r) => r.code).join(", ")})`);
  }
  refuseMissingPasswords(plan, options);
  const run: Run = { results: new Map(), total: plan.changes.length, options };
  // A change that would send a secret the config does not set is refused alone, before any request: the
  // others are as independent of it as of a stale one (DESIGN §2, §7).
  for (const change of plan.changes.filter(needsSecret)) record(run, change, { change, status: "skipped", reason: "needs-secret" });
  for (const phase of PHASES) {
    const due = plan.changes.filter((c) => c.action === phase && !run.results.has(c));
    await Promise.all(due.map(async (change) => record(run, change, await attempt(change, client, run))));
  }
  const items = plan.changes.map((change) => run.results.get(change)!);
  return { items, counts: countItems(items, plan.summary.unchanged), ...(run.aborted ? { aborted: run.aborted } : {}) };
}

/** An apply under way: each change's result so far, and why it stopped sending, once a 401/403 stops it. */
interface Run {
  results: Map<Change, ItemResult>;
  total: number;
  options: ApplyOptions;
  aborted?: string;
}

function record(run: Run, change: Change, result: ItemResult): void {
  run.results.set(change, result);
  run.options.onItem?.(result, run.results.size, run.total);
}

/** One change sent, unless the apply has stopped; a fatal answer stops the ones not yet started. */
async function attempt(change: Change, client: Client, run: Run): Promise<ItemResult> {
  const { options } = run;
  if (run.aborted) return { change, status: "skipped", reason: "not-attempted", detail: { cause: run.aborted } };
  if (options.stop?.aborted) return notStarted(change, options.stop);
  try {
    options.onStart?.(change);
    return await executeChange(change, client, options);
  } catch (error) {
    if (error instanceof ApiError && error.fatal) run.aborted ??= error.message;
    return options.stop?.aborted && error instanceof ApiError && error.kind === "stopped"
      ? notStarted(change, options.stop)
      : failure(change, error);
  }
}

function executeChange(change: Change, client: Client, options: ApplyOptions): Promise<ItemResult> {
  if (change.kind === "project") return deleteProject(change, client);
  switch (change.action) {
    case "create":
      return createWebsite(change, client, options);
    case "update":
      return updateWebsite(change, client, options);
    case "delete":
      return deleteWebsite(change, client);
  }
}

/** After a stop signal (SIGINT, SIGTERM): the change's requests were never sent; a rerun plans it again. */
function notStarted(change: Change, stop: AbortSignal): ItemResult {
  return { change, status: "skipped", reason: "not-started", detail: { signal: String(stop.reason) } };
}

function failure(change: Change, error: unknown): ItemResult {
  // Not sent: an earlier 401/403 stopped the run (a stop signal is `notStarted`, above).
  if (error instanceof ApiError && error.kind === "stopped") {
    return {
      change,
      status: "skipped",
      reason: "not-attempted",
      detail: { cause: error.cause instanceof Error ? error.cause.message : error.message },
    };
  }
  if (!(error instanceof ApiError)) {
    return { change, status: "failed", reason: "failed", error: { message: error instanceof Error ? error.message : String(error) } };
  }
  return { change, status: "failed", reason: "failed", error: errorOf(error) };
}
