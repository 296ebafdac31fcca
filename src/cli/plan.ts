import { run } from "../run/run.ts";
import { toRunSettings } from "../run/to-run-settings.ts";
import { writeOutput } from "../run/write-file.ts";
import { argsOf, cliSettings } from "./_args.ts";
import { command } from "./_command.ts";
import { cliHooks, show } from "./_run.ts";

export default command({
  meta: {
    name: "plan",
    description: "Compare the config with the live account and show what apply would change. Never writes.",
  },
  args: argsOf("plan"),
  examples: [
    "SITESYNC_API_KEY=... sitesync plan --websites-url https://analytics.example.com",
    "sitesync plan --out plan.json && sitesync apply plan.json",
    "sitesync plan --detailed-exitcode --quiet   # cron drift check: exit 2 on drift",
    "sitesync plan --changed-since origin/main   # only the websites this branch changes, and the write-only values it edits",
    "sitesync plan --target 'shop-*.example.com' --exclude 'shop-test.example.com' --out plan.json   # a partial plan",
  ],
  async run(flags, { io, env, lists, signal }) {
    const settings = { ...toRunSettings(cliSettings("plan", flags, lists), "plan"), savesPlan: Boolean(flags.out) };
    const outcome = await run({ command: "plan", config: flags.config, env, settings, redactor: io.redactor, signal }, cliHooks(io, flags));
    // A saved plan is one account's: with many, the run refused --out before any request.
    const accounts = outcome.accounts;
    const plan = accounts?.length === 1 ? accounts[0]?.outcome.plan : outcome.plan;
    // A refused plan is shown but never saved: there is nothing in it to apply.
    const out = plan && outcome.error === undefined && plan.refusals.length === 0 ? flags.out : undefined;
    if (plan && out) writeOutput(out, `${io.redactor.json(plan)}\n`);
    return show(outcome, io, { format: flags.format, quiet: Boolean(flags.quiet), out: flags.out, saved: out !== undefined });
  },
});
