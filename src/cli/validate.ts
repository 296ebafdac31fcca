import { run } from "../run/run.ts";
import { toRunSettings } from "../run/to-run-settings.ts";
import { argsOf, cliSettings } from "./_args.ts";
import { command } from "./_command.ts";
import { cliHooks, show } from "./_run.ts";

export default command({
  meta: {
    name: "validate",
    description: "Check a config file offline (no key, no URL needed) and report every problem at once.",
  },
  args: argsOf("validate"),
  examples: ["sitesync validate -c sitesync.yaml", "sitesync validate --strict-env   # also check that every ${VAR} is set"],
  async run(flags, { io, env }) {
    const settings = toRunSettings(cliSettings("validate", flags), "validate");
    const outcome = await run({ command: "validate", config: flags.config, env, settings, redactor: io.redactor }, cliHooks(io, flags));
    return show(outcome, io, { format: "text", quiet: Boolean(flags.quiet) });
  },
});
