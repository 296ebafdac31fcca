import { run } from "../run/run.ts";
import { toRunSettings } from "../run/to-run-settings.ts";
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
    const settings = toRunSettings(cliSettings("plan", flags, lists), "plan");
    const outcome = await run({ command: "plan", config: flags.config, env, settings, redactor: io.redactor, signal }, cliHooks(io, flags));
    return show(outcome, io, { format: flags.format, quiet: Boolean(flags.quiet), out: flags.out });
  },
});
