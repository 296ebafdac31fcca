import { run } from "../run/run.ts";
import { apiArgs, connectSettings, outputArgs } from "./_args.ts";
import { command } from "./_command.ts";
import { cliHooks, show } from "./_run.ts";

export default command({
  meta: {
    name: "export",
    description: "Write the live account as a config file; it plans to no changes. (`export --update FILE` is `sitesync adopt FILE`.)",
  },
  args: {
    ...apiArgs,
    verbose: outputArgs.verbose,
    quiet: outputArgs.quiet,
    out: { type: "string", alias: "o", description: 'Write the config to this new file ("-" or none: stdout)', valueHint: "sitesync.yaml" },
    force: { type: "boolean", description: "Overwrite the --out file if it exists (its comments and edits are lost)" },
    projects: { type: "boolean", description: "Also export the projects (needs a projects URL)" },
    update: {
      type: "string",
      description: "The former spelling of `sitesync adopt FILE`, still accepted: it runs adopt with the flags that follow",
      valueHint: "sitesync.yaml",
    },
  },
  refused: {
    "changed-since": "export writes the whole account: --changed-since and --full go with plan and apply",
    full: "export writes the whole account: --changed-since and --full go with plan and apply",
    ...Object.fromEntries(
      ["add-unlisted", "into", "account", "dry-run"].map((flag) => [
        flag,
        "--add-unlisted, --into, --account and --dry-run go with --update FILE, now sitesync adopt FILE",
      ]),
    ),
  },
  examples: [
    "SITESYNC_API_KEY=... sitesync export --websites-url https://analytics.example.com --out sitesync.yaml",
    "sitesync export --out - --projects > sitesync.yaml",
  ],
  async run(flags, { io, env, signal }) {
    const exportFile = flags.out === undefined || flags.out === "-" ? undefined : flags.out;
    const settings = { ...connectSettings(flags), exportFile, force: Boolean(flags.force), projects: Boolean(flags.projects) };
    const outcome = await run({ command: "export", env, settings, redactor: io.redactor, signal }, cliHooks(io, flags));
    return show(outcome, io, { format: "text", quiet: Boolean(flags.quiet) });
  },
});
