import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import pkg from "../../package.json" with { type: "json" };
import { exportConfig, schemaReference } from "../config/export-config.ts";
import { clientFor } from "../run/client.ts";
import { ExitCode } from "../run/exit-code.ts";
import { writeOutput } from "../run/write-file.ts";
import { apiArgs, connectSettings, outputArgs } from "./_args.ts";
import { command } from "./_command.ts";
import { cliHooks } from "./_run.ts";

const SCHEMA = fileURLToPath(new URL("../../schemas/sitesync.schema.json", import.meta.url));

export default command({
  meta: {
    name: "export",
    description: "Write the live account as a config file; planning it against the same account shows no changes.",
  },
  args: {
    ...apiArgs,
    verbose: outputArgs.verbose,
    quiet: outputArgs.quiet,
    out: { type: "string", alias: "o", description: "Write the config to this file (else to stdout)", valueHint: "sitesync.yaml" },
    projects: { type: "boolean", description: "Also export the projects (needs a projects URL)" },
  },
  examples: ["SITESYNC_API_KEY=... sitesync export --websites-url https://analytics.example.com --out sitesync.yaml"],
  async run(flags, { io, env, signal }) {
    const request = { env, settings: connectSettings(flags), redactor: io.redactor, signal };
    const client = clientFor(request, undefined, cliHooks(io, flags).onRequest);
    const [websites, projects] = await Promise.all([
      client.websites.readAll(),
      flags.projects ? client.projects.readAll() : undefined,
    ]);
    const target = flags.out ? dirname(resolve(flags.out)) : process.cwd();
    const { yaml, passwordVariables } = exportConfig(projects ? { websites, projects } : { websites }, {
      schemaPath: schemaReference(target, { schemaFile: SCHEMA, version: pkg.version }),
    });
    if (flags.out) writeOutput(flags.out, yaml);
    else io.out(yaml);
    if (!flags.quiet) {
      const where = flags.out ? ` to ${flags.out}` : "";
      io.err(`Exported ${websites.length} websites${projects ? ` and ${projects.length} projects` : ""}${where}.`);
      if (passwordVariables.length) io.err(`Set ${passwordVariables.length} password variable(s) before planning: ${passwordVariables.join(", ")}`);
    }
    return ExitCode.ok;
  },
});
