import { matrixUnknownNote } from "../render/index.ts";
import { fleetMatrix } from "../run/matrix.ts";
import { argsOf } from "./_args.ts";
import { command } from "./_command.ts";

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
    const matrix = await fleetMatrix(flags.config, env, flags["changed-since"]);
    const ref = flags["changed-since"];
    if (matrix.unknownChange && ref !== undefined) io.err(matrixUnknownNote(ref, matrix.unknownChange));
    io.out(JSON.stringify({ include: matrix.include }));
    return 0;
  },
});
