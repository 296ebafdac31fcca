import { run } from "../run/run.ts";
import { toRunSettings } from "../run/to-run-settings.ts";
import { argsOf, cliSettings } from "./_args.ts";
import { command } from "./_command.ts";
import { cliHooks, show } from "./_run.ts";

const NO_CHANGE = "export writes the whole account: --changed-since and --full go with plan and apply";
const ADOPT_ONLY = "--add-unlisted, --into, --account and --dry-run go with --update FILE, now sitesync adopt FILE";

export default command({
  meta: {
    name: "export",
    description: "Write the live account as a config file; it plans to no changes. (`export --update FILE` is `sitesync adopt FILE`.)",
  },
  args: argsOf("export"),
  refused: {
    "changed-since": NO_CHANGE,
    full: NO_CHANGE,
    ...Object.fromEntries(["add-unlisted", "into", "account", "dry-run"].map((flag) => [flag, ADOPT_ONLY])),
  },
  examples: [
    "SITESYNC_API_KEY=... sitesync export --websites-url https://analytics.example.com --out sitesync.yaml",
    "sitesync export --out - --projects > sitesync.yaml",
  ],
  async run(flags, { io, env, signal, lists }) {
    const settings = toRunSettings(cliSettings("export", flags, lists), "export");
    const outcome = await run({ command: "export", env, settings, redactor: io.redactor, signal }, cliHooks(io, flags));
    return show(outcome, io, { format: "text", quiet: Boolean(flags.quiet) });
  },
});
