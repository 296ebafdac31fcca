import { writeFileSync } from "node:fs";
import { createInterface } from "node:readline/promises";
import { defineCommand } from "citty";
import { apply } from "../apply/apply.ts";
import { checkPreconditions } from "../apply/preconditions.ts";
import { countItems, renderResultsMarkdown, renderResultsText } from "../apply/report.ts";
import { assertSameConfig, readSavedPlan } from "../apply/saved-plan.ts";
import type { ItemResult } from "../apply/types.ts";
import type { Client } from "../api/types.ts";
import type { Config } from "../config/types.ts";
import { ExitCode, SafetyError, UsageError } from "../errors.ts";
import { render } from "../plan/render/index.ts";
import type { Plan } from "../plan/types.ts";
import { apiArgs, configArgs, outputArgs, parseFormat, planArgs, rejectUnknownFlags } from "./_args.ts";
import type { Io } from "./_io.ts";
import { type PlanFlags, passwordsOf, planFromConfig } from "../pipeline.ts";
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
  meta: {
    name: "apply",
    description: "Make the account match the config: creates, then updates, then deletes.",
  },
  args,
  async run({ args: flags, rawArgs, data }) {
    const io = (data as { io: Io }).io;
    rejectUnknownFlags(rawArgs, args);
    const format = parseFormat(flags.format);
    const fromFile = flags.plan ? readSavedPlan(flags.plan) : undefined;
    const explicitConfig = rawArgs.some((a) => a === "-c" || a.startsWith("--config"));
    const configFile = fromFile && !explicitConfig ? fromFile.configFile : flags.config;
    const config = loadConfigOrThrow(configFile, io, flags.quiet);
    if (fromFile) assertSameConfig(fromFile, config.digest, config.file);
    const client = clientFor(flags, config, io);

    const { plan, stale } = fromFile ? await checkPreconditions(fromFile, client) : await freshPlan(config, client, flags, io);
    if (plan.changes.length === 0 && stale.length === 0) {
      if (!flags.quiet) io.out("No changes. The account matches the configuration.");
      return ExitCode.ok;
    }
    if (!fromFile && !flags["auto-approve"]) await confirm();

    const progress = progressReporter(io, Boolean(flags.quiet));
    const result = await apply(plan, client, { passwordOf: passwordsOf(config), ...(progress.onItem ? { onItem: progress.onItem } : {}) });
    progress.finish();
    const items: ItemResult[] = [...result.items, ...stale];
    const counts = countItems(items, plan.summary.unchanged);
    io.out(format === "markdown" ? renderResultsMarkdown(items, counts) : format === "json" ? JSON.stringify({ counts, items }, null, 2) : renderResultsText(items, counts, io.color));
    if (flags.results) writeFileSync(flags.results, `${JSON.stringify({ counts, items, ...(result.aborted ? { aborted: result.aborted } : {}) }, null, 2)}\n`);
    if (result.aborted) io.err(`error: the run stopped early: ${result.aborted}`);

    const unconverged = flags.verify ? await verifyConvergence(config, client, flags, io) : 0;
    if (result.aborted) return ExitCode.error;
    if (counts.failed > 0 || unconverged > 0) return ExitCode.applyFailed;
    if (stale.length > 0) {
      io.err(`${stale.length} change${stale.length === 1 ? " was" : "s were"} stale and skipped: plan again to review them.`);
      return ExitCode.refused;
    }
    return ExitCode.ok;
  },
});

async function freshPlan(config: Config, client: Client, flags: PlanFlags, io: Io): Promise<{ plan: Plan; stale: ItemResult[] }> {
  const plan = await planFromConfig(config, client, flags);
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
