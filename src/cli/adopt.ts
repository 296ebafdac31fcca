import { UsageError } from "../errors.ts";
import { run } from "../run/run.ts";
import { toRunSettings } from "../run/to-run-settings.ts";
import { argsOf, cliSettings } from "./_args.ts";
import { command } from "./_command.ts";
import { cliHooks, show } from "./_run.ts";

const NO_CHANGE =
  "adopt always reads the whole account: it adopts drift wherever it is, which a change does not show; leave out --changed-since and --full";

/** `sitesync adopt FILE` (DESIGN §7): accept the account's live changes into the config in place. */
export default command({
  meta: {
    name: "adopt",
    description:
      "Accept the account's live changes into the config (and the files it includes) in place, rewriting only the drifted lines; afterwards it plans to no changes.",
  },
  args: {
    file: { type: "positional", required: true, description: "The config file to update", valueHint: "sitesync.yaml" },
    ...argsOf("adopt"),
  },
  refused: { "changed-since": NO_CHANGE, full: NO_CHANGE },
  examples: [
    "sitesync adopt sitesync.yaml --dry-run   # show what the account changed, as a diff of the file",
    "sitesync adopt sitesync.yaml --add-unlisted --into clients/new.yaml   # new websites go to an included file",
  ],
  async run(flags, { io, env, signal, lists }) {
    if (flags.file === "") throw new UsageError("adopt takes the config file to update: sitesync adopt sitesync.yaml");
    const settings = toRunSettings(cliSettings("adopt", flags, lists), "adopt");
    const outcome = await run({ command: "adopt", config: flags.file, env, settings, redactor: io.redactor, signal }, cliHooks(io, flags));
    return show(outcome, io, { format: "text", quiet: Boolean(flags.quiet), dryRun: settings.dryRun ?? false });
  },
});
