import { defineCommand } from "citty";
import { SafetyError } from "../errors.ts";
import { render } from "../render/index.ts";
import { apiArgs, configArgs, outputArgs, parseFormat, planArgs, planSettings, rejectUnknownFlags } from "./_args.ts";
import { type Io, writeOutput } from "./_io.ts";
import { planFromConfig } from "../pipeline.ts";
import { clientFor, loadConfigOrThrow } from "./_session.ts";

const args = {
  ...configArgs,
  ...apiArgs,
  ...planArgs,
  ...outputArgs,
  out: { type: "string", alias: "o", description: "Save the plan (no secrets) for `sitesync apply FILE`", valueHint: "plan.json" },
  "detailed-exitcode": { type: "boolean", description: "Exit 2 when there are changes (0 when none), for drift checks" },
} as const;

export const examples = [
  "SITESYNC_API_KEY=... sitesync plan --websites-url https://analytics.example.com",
  "sitesync plan --out plan.json && sitesync apply plan.json",
  "sitesync plan --detailed-exitcode --quiet   # cron drift check: exit 2 on drift",
];

export const planCommand = defineCommand({
  meta: {
    name: "plan",
    description: "Compare the config with the live account and show what apply would change. Never writes.",
  },
  args,
  async run({ args: flags, rawArgs, data }) {
    const io = (data as { io: Io }).io;
    rejectUnknownFlags(rawArgs, args);
    const format = parseFormat(flags.format);
    const config = loadConfigOrThrow(flags.config, io, flags.quiet);
    const client = clientFor(flags, config, io);
    const plan = await planFromConfig(config, client, planSettings(flags));
    // A refused plan is shown but never saved: there is nothing in it to apply.
    if (flags.out && plan.refusals.length === 0) writeOutput(flags.out, `${JSON.stringify(plan, null, 2)}\n`);
    if (!(flags.quiet && format === "text" && plan.changes.length === 0 && plan.refusals.length === 0)) {
      io.out(render(plan, format, { color: io.color && format === "text" }));
    }
    if (plan.refusals.length > 0) {
      throw new SafetyError(plan.refusals[0]!.code, plan.refusals.map((r) => r.message).join("\n"));
    }
    if (flags.out && !flags.quiet) io.err(`Saved the plan to ${flags.out}; apply it with: sitesync apply ${flags.out}`);
    return flags["detailed-exitcode"] && plan.changes.length > 0 ? 2 : 0;
  },
});
