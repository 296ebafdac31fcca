import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import pc from "picocolors";
import pkg from "../../package.json" with { type: "json" };
import { type UpdateSummary, updateConfig } from "../adopt/update-config.ts";
import { exportConfig, schemaReference } from "../config/export-config.ts";
import { loadConfig } from "../config/load.ts";
import { ConfigError, type Diagnostic, formatDiagnostic, UsageError } from "../errors.ts";
import { plural } from "../model/plural.ts";
import { clientFor } from "../run/client-for.ts";
import { ExitCode } from "../run/exit-code.ts";
import type { Env } from "../run/types.ts";
import { writeNewOutput, writeOutput } from "../run/write-file.ts";
import { apiArgs, connectSettings, outputArgs } from "./_args.ts";
import { command } from "./_command.ts";
import type { Io } from "./_io.ts";
import { cliHooks } from "./_run.ts";

const URL_KEYS: ReadonlySet<string> = new Set(["websites_url", "projects_url"]);

const SCHEMA = fileURLToPath(new URL("../../schemas/sitesync.schema.json", import.meta.url));

type ExportFlags = {
  "websites-url"?: string | undefined;
  "projects-url"?: string | undefined;
  concurrency?: string | undefined;
  timeout?: string | undefined;
  "max-wait"?: string | undefined;
  "rate-window"?: string | undefined;
  verbose?: boolean | undefined;
  quiet?: boolean | undefined;
};

export default command({
  meta: {
    name: "export",
    description: "Write the live account as a config file, or accept live changes into one (--update); either plans to no changes.",
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
      description: "Accept the account's live changes into this config in place, rewriting only the drifted lines",
      valueHint: "sitesync.yaml",
    },
    "add-unlisted": {
      type: "boolean",
      description: "With --update: also add live websites the file does not list (prune: true adds them anyway)",
    },
    "dry-run": { type: "boolean", description: "With --update: show the diff, write nothing" },
  },
  examples: [
    "SITESYNC_API_KEY=... sitesync export --websites-url https://analytics.example.com --out sitesync.yaml",
    "sitesync export --update sitesync.yaml --dry-run   # show what the account changed, as a diff of the file",
  ],
  async run(flags, { io, env, signal }) {
    if (flags.update !== undefined) {
      if (flags.update === "") throw new UsageError("--update takes the config file to update: sitesync export --update sitesync.yaml");
      if (flags.out !== undefined || flags.force || flags.projects) {
        throw new UsageError(
          "--update edits its file in place: leave out --out, --force and --projects (the file says whether it manages projects)",
        );
      }
      return update(flags.update, { addUnlisted: flags["add-unlisted"] === true, dryRun: flags["dry-run"] === true }, flags, io, env);
    }
    if (flags["add-unlisted"] || flags["dry-run"]) throw new UsageError("--add-unlisted and --dry-run go with --update FILE");
    const out = flags.out === undefined || flags.out === "-" ? undefined : flags.out;
    // Before any request: a hand-written config is never overwritten by accident (issue 10).
    if (out !== undefined && !flags.force && existsSync(out)) throw refuseOverwrite(out);
    const request = { env, settings: connectSettings(flags), redactor: io.redactor, signal };
    const client = clientFor(request, undefined, cliHooks(io, flags));
    const [websites, projects] = await Promise.all([client.websites.readAll(), flags.projects ? client.projects.readAll() : undefined]);
    const target = out ? dirname(resolve(out)) : process.cwd();
    const { yaml } = exportConfig(projects ? { websites, projects } : { websites }, {
      schemaPath: schemaReference(target, { schemaFile: SCHEMA, version: pkg.version }),
    });
    // The file is an output like stdout: a live name that echoes a key must not carry it there (DESIGN §12).
    const text = io.redactor.redact(yaml);
    if (out === undefined) io.out(text);
    else if (flags.force) writeOutput(out, text);
    else if (!writeNewOutput(out, text)) throw refuseOverwrite(out);
    if (!flags.quiet) {
      const where = out ? ` to ${out}` : "";
      io.err(`Exported ${plural(websites.length, "website")}${projects ? ` and ${plural(projects.length, "project")}` : ""}${where}.`);
    }
    return ExitCode.ok;
  },
});

function refuseOverwrite(file: string): UsageError {
  return new UsageError(
    `${file} already exists: to accept the account's live changes into it, run "sitesync export --update ${file}"; to replace it (losing its comments and edits), add --force`,
  );
}

interface UpdateOptions {
  addUnlisted: boolean;
  dryRun: boolean;
}

/**
 * `export --update FILE`: reads the account the file points at (URL precedence as in plan: flags, then the
 * environment, then the file), edits the file so that it plans to no changes, shows the diff and writes it.
 */
async function update(file: string, options: UpdateOptions, flags: ExportFlags, io: Io, env: Env): Promise<number> {
  // The file's own URLs apply; its secrets are not needed, so an unset ${VAR} does not stop the update.
  const loaded = loadConfig(file, { env, unsetEnv: "warning" });
  if (!loaded.ok) throw new ConfigError(loaded.errors);
  // ...except in the account's address: the update must read the account the file points at.
  const unsetUrls = loaded.warnings.filter((d) => d.code === "env.unset" && URL_KEYS.has(d.path));
  if (unsetUrls.length > 0) {
    const named = (d: Diagnostic) => /variable (\S+) is not set/.exec(d.message)?.[1] ?? "";
    const message = (name: string) => `environment variable ${name} is not set; set it, or give a default with \${${name}:-value}`;
    throw new ConfigError(unsetUrls.map((d) => ({ ...d, message: message(named(d)), severity: "error" as const })));
  }
  const config = loaded.config;
  io.redactor.add(config.secrets);
  const source = readFileSync(file, "utf8");
  const client = clientFor({ env, settings: connectSettings(flags), redactor: io.redactor }, config, cliHooks(io, flags));
  const [websites, projects] = await Promise.all([
    client.websites.readAll(),
    config.projects === undefined ? undefined : client.projects.readAll(),
  ]);
  const result = updateConfig({
    file,
    source,
    live: projects ? { websites, projects } : { websites },
    addUnlisted: options.addUnlisted,
    env,
  });
  if (!result.ok) {
    for (const diagnostic of result.diagnostics) io.err(formatDiagnostic(diagnostic));
    io.err(`${file} cannot be updated safely: it was not changed. Edit the lines above by hand, or run "sitesync plan" to see the drift.`);
    return ExitCode.error;
  }
  if (result.diff) io.out(io.color ? colorDiff(result.diff) : result.diff);
  if (result.text !== source && !options.dryRun) writeOutput(file, result.text);
  if (!flags.quiet) io.err(summaryLine(file, result.summary, result.text !== source, options.dryRun));
  return ExitCode.ok;
}

/** One line on stderr: what changed in the file, and what was left out of it. */
function summaryLine(file: string, s: UpdateSummary, changed: boolean, dryRun: boolean): string {
  const counts = [
    `${s.updated.length} updated`,
    `${s.added.length} added`,
    `${s.removed.length} removed`,
    ...(s.restored.length ? [`${s.restored.length} restored`] : []),
    `${s.unmanaged.length} unmanaged`,
  ].join(", ");
  const verb = !changed
    ? `${file} already matches the account`
    : dryRun
      ? `${file} would be updated (--dry-run: nothing written)`
      : `Updated ${file}`;
  const unmanaged = s.unmanaged.length ? "; --add-unlisted adds the unmanaged websites" : "";
  const projects = s.projectChanges
    ? `; the plan still holds ${plural(s.projectChanges, "project change")} (projects are never adopted)`
    : "";
  return `${verb}: websites ${counts}${unmanaged}${projects}.`;
}

function colorDiff(diff: string): string {
  return diff
    .split("\n")
    .map((line) => {
      if (line.startsWith("+++") || line.startsWith("---")) return pc.bold(line);
      if (line.startsWith("+")) return pc.green(line);
      if (line.startsWith("-")) return pc.red(line);
      if (line.startsWith("@@")) return pc.cyan(line);
      return line;
    })
    .join("\n");
}
