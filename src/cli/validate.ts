import { run } from "../run/run.ts";
import { configArgs, outputArgs } from "./_args.ts";
import { command } from "./_command.ts";
import { cliHooks, show } from "./_run.ts";

export default command({
  meta: {
    name: "validate",
    description: "Check a config file offline (no key, no URL needed) and report every problem at once.",
  },
  args: {
    ...configArgs,
    quiet: outputArgs.quiet,
    "strict-env": { type: "boolean", description: "Treat an unset ${VAR} as an error, as plan and apply do (else it is a note)" },
  },
  examples: ["sitesync validate -c sitesync.yaml", "sitesync validate --strict-env   # also check that every ${VAR} is set"],
  async run(flags, { io, env }) {
    const settings = { strictEnv: flags["strict-env"] === true };
    const outcome = await run({ command: "validate", config: flags.config, env, settings, redactor: io.redactor }, cliHooks(io, flags));
    return show(outcome, io, { format: "text", quiet: Boolean(flags.quiet) });
  },
});
