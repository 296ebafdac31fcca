import { UsageError } from "../errors.ts";
import { run } from "../run/run.ts";
import { apiArgs, connectSettings, outputArgs, planArgs } from "./_args.ts";
import { command } from "./_command.ts";
import { cliHooks, show } from "./_run.ts";

/** `sitesync adopt FILE` (DESIGN §7): accept the account's live changes into the config in place. */
export default command({
  meta: {
    name: "adopt",
    description:
      "Accept the account's live changes into the config (and the files it includes) in place, rewriting only the drifted lines; afterwards it plans to no changes.",
  },
  args: {
    file: { type: "positional", required: true, description: "The config file to update", valueHint: "sitesync.yaml" },
    ...apiArgs,
    verbose: outputArgs.verbose,
    quiet: outputArgs.quiet,
    "add-unlisted": { type: "boolean", description: "Also add live websites the file does not list (prune: true adds them anyway)" },
    into: {
      type: "string",
      description:
        "The file new websites go to (default: the root's websites): the root or a file it includes, of their account; repeatable, one per account",
      valueHint: "file",
    },
    account: planArgs.account,
    "dry-run": { type: "boolean", description: "Show the diff, write nothing" },
  },
  refused: Object.fromEntries(
    ["changed-since", "full"].map((flag) => [
      flag,
      "adopt always reads the whole account: it adopts drift wherever it is, which a change does not show; leave out --changed-since and --full",
    ]),
  ),
  examples: [
    "sitesync adopt sitesync.yaml --dry-run   # show what the account changed, as a diff of the file",
    "sitesync adopt sitesync.yaml --add-unlisted --into clients/new.yaml   # new websites go to an included file",
  ],
  async run(flags, { io, env, signal, lists }) {
    if (flags.file === "") throw new UsageError("adopt takes the config file to update: sitesync adopt sitesync.yaml");
    const settings = {
      ...connectSettings(flags),
      ...(lists.account ? { accounts: lists.account } : {}),
      addUnlisted: flags["add-unlisted"] === true,
      into: lists.into ?? [],
      dryRun: flags["dry-run"] === true,
    };
    const outcome = await run({ command: "adopt", config: flags.file, env, settings, redactor: io.redactor, signal }, cliHooks(io, flags));
    return show(outcome, io, { format: "text", quiet: Boolean(flags.quiet), dryRun: settings.dryRun });
  },
});
