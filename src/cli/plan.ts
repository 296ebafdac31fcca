import { render } from "../render/index.ts";
import { run } from "../run/run.ts";
import { writeOutput } from "../run/write-file.ts";
import { apiArgs, configArgs, outputArgs, planArgs, runSettings } from "./_args.ts";
import { command } from "./_command.ts";
import { cliHooks, conclude, reportRefusals } from "./_run.ts";

export default command({
  meta: {
    name: "plan",
    description: "Compare the config with the live account and show what apply would change. Never writes.",
  },
  args: {
    ...configArgs,
    ...apiArgs,
    ...planArgs,
    ...outputArgs,
    out: { type: "string", alias: "o", description: "Save the plan (no secrets) for `sitesync apply FILE`", valueHint: "plan.json" },
    "detailed-exitcode": { type: "boolean", description: "Exit 2 when there are changes (0 when none), for drift checks" },
  },
  examples: [
    "SITESYNC_API_KEY=... sitesync plan --websites-url https://analytics.example.com",
    "sitesync plan --out plan.json && sitesync apply plan.json",
    "sitesync plan --detailed-exitcode --quiet   # cron drift check: exit 2 on drift",
    "sitesync plan --target 'shop-*.example.com' --exclude 'shop-test.example.com' --out plan.json   # a partial plan",
  ],
  async run(flags, { io, env, lists, signal }) {
    const settings = { ...runSettings(flags, lists), detailedExitcode: Boolean(flags["detailed-exitcode"]) };
    const outcome = await run({ command: "plan", config: flags.config, env, settings, redactor: io.redactor, signal }, cliHooks(io, flags));
    const plan = outcome.plan;
    if (!plan || outcome.error !== undefined) return conclude(outcome, io);
    // A refused plan is shown but never saved: there is nothing in it to apply.
    if (flags.out && plan.refusals.length === 0) writeOutput(flags.out, `${io.redactor.json(plan)}\n`);
    if (!(flags.quiet && flags.format === "text" && plan.changes.length === 0 && plan.refusals.length === 0)) {
      io.out(render(plan, flags.format, { color: io.color && flags.format === "text" }));
    }
    // The text plan already ends with the reasons: say them once. JSON and Markdown usually go to a file.
    if (plan.refusals.length > 0 && flags.format === "text") {
      io.err(`error: the plan was refused by a safety rail (reason above)${flags.out ? `; ${flags.out} was not written` : ""}`);
    } else if (plan.refusals.length > 0) reportRefusals(plan, io);
    else if (flags.out && !flags.quiet) io.err(`Saved the plan to ${flags.out}; apply it with: sitesync apply ${flags.out}`);
    return outcome.exitCode;
  },
});
