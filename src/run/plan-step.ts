/**
 * `plan` and `apply` of one account (DESIGN §1): a fresh plan, a saved plan confirmed against a fresh one,
 * or a reviewed plan intersected with one; then, for apply, the prompt, apply, and with `verify` a re-plan:
 * whatever is still planned did not converge.
 */
import type { Client } from "../api/types.ts";
import { apply } from "../apply/apply.ts";
import { countItems } from "../apply/count-items.ts";
import type { ApplyOptions, ItemResult } from "../apply/types.ts";
import type { Config } from "../config/types.ts";
import { InternalError } from "../errors.ts";
import type { Change } from "../plan/types.ts";
import { holdAccountLock } from "./account-lock.ts";
import { clientFor } from "./client-for.ts";
import { stopSignalOf } from "./exit-code.ts";
import { assertSameConfig, assertSameTarget } from "./plan-file.ts";
import { passwordsOf, planFromConfig } from "./plan-from-config.ts";
import { baseOf } from "./read-for-change.ts";
import { reviewSourceOf } from "./review-status.ts";
import { type Checked, confirmSaved, intersectWithReview } from "./reviewed.ts";
import type { AccountSpec, RunScope } from "./scope.ts";
import type { AccountRun } from "./types.ts";
import { writeOutput } from "./write-file.ts";

export async function planStep(scope: RunScope, spec: AccountSpec, run: AccountRun): Promise<void> {
  const config = spec.config;
  if (config === undefined) throw new InternalError("a plan needs the account's config");
  const client = clientFor(scope, spec);
  run.target = client.target;
  if (scope.command !== "apply") return await planAndApply(scope, spec, { config, client }, run);
  // From before its first read to its end (the prompt included), an apply holds its account (DESIGN §6).
  const account = { address: client.target.websites ?? spec.address, apiKey: spec.secrets.apiKey ?? "" };
  const lock = await holdAccountLock(account, { pid: process.pid, started: new Date().toISOString() });
  try {
    await planAndApply(scope, spec, { config, client }, run);
  } finally {
    await lock.release();
  }
}

async function planAndApply(scope: RunScope, spec: AccountSpec, { config, client }: Omit<Planned, "plan">, run: AccountRun): Promise<void> {
  const { plan, skipped } = await planned(scope, spec, config, client, run);
  run.plan = plan;
  run.skipped = skipped;
  const { planFile } = scope.settings;
  // A refused plan is shown but never saved: there is nothing in it to apply.
  if (scope.command === "plan" && planFile !== undefined && plan.refusals.length === 0) {
    writeOutput(planFile, `${scope.redactor.json(plan)}\n`);
    run.planFile = planFile;
  }
  await scope.hooks.onPlan?.(plan, skipped, spec.name);
  if (scope.command !== "apply" || plan.refusals.length > 0) return;
  if (plan.changes.length === 0 && skipped.length === 0) return;
  await scope.hooks.approve?.(plan, spec.name);
  await applyPlan(scope, spec, { config, client, plan }, run);
}

/** The plan to show or apply, and the changes skipped on purpose: a saved plan confirmed, a review intersected, or a fresh plan. */
async function planned(scope: RunScope, spec: AccountSpec, config: Config, client: Client, run: AccountRun): Promise<Checked> {
  const { given, settings, env } = scope;
  const options = { ...settings, bases: scope.bases };
  if (given && "saved" in given) {
    assertSameConfig(given.saved, config);
    assertSameTarget(given.saved, client.target);
    const checked = await confirmSaved(given.saved, config, client, options, env);
    run.notInSavedPlan = checked.notInSavedPlan;
    return checked;
  }
  const review = reviewSourceOf(given, spec.name);
  if (review) {
    const checked = await intersectWithReview(review, config, client, options, env);
    run.review = { ...checked.review, status: "nothing-applied" };
    return checked;
  }
  return { plan: await planFromConfig(config, client, options, env), skipped: [] };
}

/** The passwords apply sends, and the run's hooks and stop signal, for this account. */
function applyOptions({ hooks, signal }: RunScope, spec: AccountSpec, config: Config): ApplyOptions {
  const { onItem, onItemStart } = hooks;
  return {
    passwordOf: passwordsOf(config),
    ...(onItemStart ? { onStart: (change: Change) => onItemStart(change, spec.name) } : {}),
    ...(onItem ? { onItem: (item: ItemResult, done: number, total: number) => onItem(item, done, total, spec.name) } : {}),
    ...(signal ? { stop: signal } : {}),
  };
}

interface Planned {
  config: Config;
  client: Client;
  plan: AccountRun["plan"] & object;
}

/** Applies, and with `verify` plans again: whatever is still planned did not converge. */
async function applyPlan(scope: RunScope, spec: AccountSpec, { config, client, plan }: Planned, run: AccountRun): Promise<void> {
  const { signal, settings } = scope;
  const result = await apply(plan, client, applyOptions(scope, spec, config));
  const items = [...result.items, ...run.skipped];
  // Refused by apply for a secret the config does not set: skipped on purpose, like a stale change (exit 4).
  for (const item of result.items) if (item.reason === "needs-secret") run.skipped.push(item);
  const interrupted = stopSignalOf(signal);
  run.results = {
    counts: countItems(items, plan.summary.unchanged),
    items,
    ...(result.aborted ? { aborted: result.aborted } : {}),
    ...(interrupted ? { interrupted } : {}),
  };
  // Skipped items were not applied on purpose: verifying them would only report them again.
  if (!settings.verify || result.aborted || signal?.aborted || run.skipped.length > 0) return;
  // A saved plan is verified within the selection it recorded (it refuses --target/--exclude of its own).
  const given = scope.given;
  const selection = given && "saved" in given ? given.saved.selection : settings.selection;
  // Over the change the plan followed, sending nothing for it: a write-only value sent cannot be read back.
  const base = baseOf(plan.since);
  const changedSince = base && { ...base, sendNothing: true };
  const again = await planFromConfig(
    config,
    client,
    { ...settings, bases: scope.bases, selection, syncWriteOnly: false, changedSince },
    scope.env,
  );
  run.unconverged = again.changes;
}
