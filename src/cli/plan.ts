import { run } from "../run/run.ts";
import { toRunSettings } from "../run/to-run-settings.ts";
import { argsOf, cliSettings } from "./_args.ts";
import { command } from "./_command.ts";
import { cliHooks, show, withEvents } from "./_run.ts";

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
    "sitesync plan --format events | jq -c 'select(.type == \"planned_change\")'   # the run as JSON lines",
  ],
  async run(flags, { io, env, lists, signal }) {
    const settings = toRunSettings(cliSettings("plan", flags, lists), "plan");
    const request = { command: "plan" as const, config: flags.config, env, settings, redactor: io.redactor, signal };
    const outcome = await withEvents(io, flags, "plan", cliHooks(io, flags), (hooks) => run(request, hooks));
    return show(outcome, io, { format: flags.format, quiet: Boolean(flags.quiet), out: flags.out });
  },
});
