import { run } from "../run/run.ts";
import { argsOf } from "./_args.ts";
import { command } from "./_command.ts";
import { show } from "./_run.ts";

/** `sitesync matrix`: the accounts as JSON for a GitHub Actions matrix. Offline but for git. */
export default command({
  meta: {
    name: "matrix",
    description:
      "Print the config's accounts as JSON for a GitHub Actions matrix (strategy.matrix: ${{ fromJSON(...) }}), a leg per " +
      'account with the names of the variables holding its keys: {"account":"eu","api_key_env":"SITESYNC_EU_API_KEY",' +
      '"projects_api_key_env":"SITESYNC_EU_PROJECTS_API_KEY"}, so that each leg passes its own secret ' +
      "(api-key: ${{ secrets[matrix.api_key_env] }}). With --changed-since, only the accounts the change touches. " +
      "Offline: needs no key.",
  },
  args: argsOf("matrix"),
  examples: ["sitesync matrix", 'echo "matrix=$(sitesync matrix --changed-since origin/main)" >> "$GITHUB_OUTPUT"'],
  async run(flags, { io, env }) {
    const ref = flags["changed-since"];
    const settings = ref === undefined ? {} : { changedSince: { ref } };
    // Offline, in a job of its own: the config's warnings are the plan legs' to show.
    const outcome = await run({ command: "matrix", config: flags.config, env, settings, redactor: io.redactor }, {});
    return show(outcome, io, { format: "text", quiet: false });
  },
});
