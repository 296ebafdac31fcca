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
  const results = new Map<Change, ItemResult>();
  let aborted: string | undefined;
  // A change that would send a secret the config does not set is refused alone, before any request: the
  // others are as independent of it as of a stale one (DESIGN §2, §7).
  for (const change of plan.changes) {
    if (needsSecret(change)) {
      results.set(change, { change, status: "skipped", reason: "needs-secret" });
      options.onItem?.(results.get(change)!, results.size, plan.changes.length);
    }
  }

  const execute = async (change: Change): Promise<void> => {
    let result: ItemResult;
    if (aborted) {
      result = { change, status: "skipped", reason: "not-attempted", detail: { cause: aborted } };
    } else if (options.stop?.aborted) {
      result = notStarted(change, options.stop);
    } else {
      try {
        options.onStart?.(change);
        result = await executeChange(change, client, options);
      } catch (error) {
        result =
          options.stop?.aborted && error instanceof ApiError && error.kind === "stopped"
            ? notStarted(change, options.stop)
            : failure(change, error);
        if (error instanceof ApiError && error.fatal) aborted ??= error.message;
      }
    }
    results.set(change, result);
    options.onItem?.(result, results.size, plan.changes.length);
  };

  for (const phase of PHASES) {
    await Promise.all(plan.changes.filter((c) => c.action === phase && !results.has(c)).map(execute));
  }
  const items = plan.changes.map((change) => results.get(change)!);
  return { items, counts: countItems(items, plan.summary.unchanged), ...(aborted ? { aborted } : {}) };
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
