import { UsageError } from "../errors.ts";
import { configChangedNote, render } from "../render/index.ts";
import { ExitCode } from "../run/exit-code.ts";
import { configState, readPlanFile } from "../run/plan-file.ts";
import { argsOf } from "./_args.ts";
import { command } from "./_command.ts";

/**
 * `sitesync show plan.json`, like `terraform show plan.out`: a saved plan again, in any format, after the same
 * integrity checks as `apply plan.json` (schema, hash). Offline: no key, no URL, no config needed.
 */
export default command({
  meta: {
    name: "show",
    description:
      "Show a plan saved by `sitesync plan --out` (text, JSON or Markdown) after checking it is intact. " +
      "Offline: needs no API key and no config. Exit 1 if the file cannot be read or is not a plan, 4 if it was altered.",
  },
  args: {
    plan: { type: "positional", required: true, description: "A plan saved by `sitesync plan --out`", valueHint: "plan.json" },
    ...argsOf("show"),
  },
  examples: [
    "sitesync show plan.json",
    'sitesync show plan.json --format markdown >> "$GITHUB_STEP_SUMMARY"',
    "sitesync show plan.json --format json | jq -r '.changes[].domain'",
  ],
  async run(flags, { io }) {
    if (!flags.plan)
      throw new UsageError("show takes the path of a saved plan: sitesync show plan.json (saved by sitesync plan --out plan.json)");
    const plan = readPlanFile(flags.plan);
    io.out(render(plan, flags.format, { color: io.color && flags.format === "text" }));
    // A note, not a failure: `show` only looks; `apply` is what refuses a plan whose config moved on.
    if (!flags.quiet) {
      const config = await configState(plan);
      if (config.state === "changed") io.err(configChangedNote(config.which, flags.plan));
    }
    return ExitCode.ok;
  },
});
