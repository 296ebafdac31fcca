import { createInterface } from "node:readline/promises";
import { defineCommand } from "citty";
import type { Client } from "../api/types.ts";
import { apply } from "../apply/apply.ts";
import { checkPreconditions } from "../apply/preconditions.ts";
import { countItems, renderResultsMarkdown, renderResultsText } from "../apply/report.ts";
import { assertSameConfig, assertSameTarget, readSavedPlan } from "../apply/saved-plan.ts";
import type { ItemResult } from "../apply/types.ts";
import type { Config } from "../config/types.ts";
import { ExitCode, SafetyError, UsageError } from "../errors.ts";
import { type PlanSettings, passwordsOf, planFromConfig } from "../pipeline.ts";
import { render } from "../plan/render/index.ts";
import type { Plan } from "../plan/types.ts";
import { apiArgs, configArgs, outputArgs, parseFormat, planArgs, planSettings, rejectUnknownFlags } from "./_args.ts";
import { type Io, writeOutput } from "./_io.ts";
import { progressReporter } from "./_progress.ts";
import { clientFor, loadConfigOrThrow } from "./_session.ts";
import { verifyConvergence } from "./_verify.ts";

const args = {
  plan: { type: "positional", required: false, description: "A plan saved by `sitesync plan --out` (else plan now)", valueHint: "plan.json" },
  ...configArgs,
  ...apiArgs,
  ...planArgs,
  ...outputArgs,
  "auto-approve": { type: "boolean", alias: "y", description: "Apply without asking (required when not on a terminal)" },
  results: { type: "string", description: "Write the results as JSON to this file", valueHint: "results.json" },
  verify: { type: "boolean", description: "Re-read the account afterwards and report fields that did not converge" },
} as const;

export const examples = [
  "sitesync apply                 # plan, show it, ask, apply",
  "sitesync apply --auto-approve --results results.json   # in CI",
  "sitesync apply plan.json       # apply a reviewed plan; stale items are skipped (exit 4)",
];

export const applyCommand = defineCommand({
  meta: { name: "apply", description: "Make the account match the config: creates, then updates, then deletes." },
  args,
  async run({ args: flags, rawArgs, data }) {
    const io = (data as { io: Io }).io;
    rejectUnknownFlags(rawArgs, args);
    const format = parseFormat(flags.format);
    const settings = planSettings(flags);
    const saved = flags.plan ? readSavedPlan(flags.plan) : undefined;
    if (saved) rejectPlanningFlags(rawArgs);
    const explicitConfig = rawArgs.some((a) => a === "-c" || a.startsWith("--config"));
    const config = loadConfigOrThrow(saved && !explicitConfig ? saved.configFile : flags.config, io, flags.quiet);
    const client = clientFor(flags, config, io);
    if (saved) {
      assertSameConfig(saved, config.digest, config.file);
      assertSameTarget(saved, client.target);
    }
    // Fail before changing anything when the results cannot be written afterwards.
    if (flags.results) writeOutput(flags.results, "");

    const { plan, stale } = saved ? await checkPreconditions(saved, client) : await freshPlan(config, client, settings, io);
    if (plan.changes.length === 0 && stale.length === 0) {
      if (!flags.quiet) io.out("No changes. The account matches the configuration.");
      return ExitCode.ok;
    }
    if (!saved && !flags["auto-approve"]) await confirm();

    const progress = progressReporter(io, Boolean(flags.quiet));
    const onItem = progress.onItem;
    const result = await apply(plan, client, { passwordOf: passwordsOf(config), ...(onItem ? { onItem } : {}) });
    progress.finish();
    const items: ItemResult[] = [...result.items, ...stale];
    const counts = countItems(items, plan.summary.unchanged);
    const report = { counts, items, ...(result.aborted ? { aborted: result.aborted } : {}) };
    // A server may echo a submitted password in its errors (DESIGN §12). Redact each string before JSON
    // escapes it: a password holding `"` or `\` would no longer be found in the escaped text.
    const json = JSON.stringify(report, (_key, value: unknown) => (typeof value === "string" ? io.redact(value) : value), 2);
    if (format === "json") io.out(json);
    else io.out(format === "markdown" ? renderResultsMarkdown(items, counts) : renderResultsText(items, counts, io.color));
    if (flags.results) writeOutput(flags.results, `${json}\n`);
    if (result.aborted) {
      io.err(`error: the run stopped early: ${result.aborted}`);
      return ExitCode.error;
    }
    if (stale.length > 0) {
      io.err(`${stale.length} change${stale.length === 1 ? " was" : "s were"} stale and skipped: plan again to review them.`);
    }
    // Stale items were not applied on purpose: verifying them would only report them again.
    const unconverged = flags.verify && stale.length === 0 ? await verifyConvergence(config, client, settings, io) : 0;
    if (counts.failed > 0 || unconverged > 0) return ExitCode.applyFailed;
    return stale.length > 0 ? ExitCode.refused : ExitCode.ok;
  },
});

/** A saved plan is applied as reviewed: flags that would change what it does belong to `plan`. */
function rejectPlanningFlags(rawArgs: string[]): void {
  const given = Object.keys(planArgs).filter((flag) => rawArgs.some((a) => a === `--${flag}` || a.startsWith(`--${flag}=`)));
  if (given.length > 0) {
    const flags = given.map((f) => `--${f}`).join(" ");
    throw new UsageError(`${flags} changes what is planned, not a saved plan: run \`sitesync plan ${flags} --out plan.json\` again`);
  }
}

async function freshPlan(config: Config, client: Client, settings: PlanSettings, io: Io): Promise<{ plan: Plan; stale: ItemResult[] }> {
  const plan = await planFromConfig(config, client, settings);
  if (plan.changes.length > 0 || plan.refusals.length > 0) io.err(render(plan, "text", { color: io.color }));
  if (plan.refusals.length > 0) throw new SafetyError(plan.refusals[0]!.code, plan.refusals.map((r) => r.message).join("\n"));
  return { plan, stale: [] };
}

async function confirm(): Promise<void> {
  if (!process.stdin.isTTY) {
    throw new UsageError("apply asks before changing the account: pass --auto-approve when not running on a terminal");
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await rl.question("Apply these changes? Only 'yes' is accepted: ");
  rl.close();
  if (answer.trim() !== "yes") throw new UsageError("apply cancelled: nothing was changed");
}
