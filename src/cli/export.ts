import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import pkg from "../../package.json" with { type: "json" };
import { schemaReference } from "../config/export-config.ts";
import { UsageError } from "../errors.ts";
import { filesToWrite } from "../run/export-account.ts";
import { run } from "../run/run.ts";
import { toRunSettings } from "../run/to-run-settings.ts";
import { checkWritable, writeNewOutput, writeOutput } from "../run/write-file.ts";
import { argsOf, cliSettings } from "./_args.ts";
import { command } from "./_command.ts";
import { cliHooks, show } from "./_run.ts";

const SCHEMA = fileURLToPath(new URL("../../schemas/sitesync.schema.json", import.meta.url));

export default command({
  meta: {
    name: "export",
    description: "Write the live account as a config file, or accept live changes into one (--update); either plans to no changes.",
  },
  args: argsOf("export"),
  examples: [
    "SITESYNC_API_KEY=... sitesync export --websites-url https://analytics.example.com --out sitesync.yaml",
    "sitesync export --update sitesync.yaml --dry-run   # show what the account changed, as a diff of the file",
    "sitesync export --update sitesync.yaml --add-unlisted --into clients/new.yaml   # new websites go to an included file",
  ],
  async run(flags, { io, env, signal, given, lists }) {
    const quiet = Boolean(flags.quiet);
    if (given.has("changed-since") || given.has("full")) throw noChangeScope(flags.update !== undefined);
    if (flags.update !== undefined) {
      if (flags.update === "") throw new UsageError("--update takes the config file to update: sitesync export --update sitesync.yaml");
      if (flags.out !== undefined || flags.force || flags.projects) {
        throw new UsageError(
          "--update edits its file in place: leave out --out, --force and --projects (the file says whether it manages projects)",
        );
      }
      const dryRun = flags["dry-run"] === true;
      const update = { update: true, addUnlisted: flags["add-unlisted"] === true, into: lists.into ?? [] };
      const settings = { ...toRunSettings(cliSettings("export", flags, lists), "export"), export: update };
      const outcome = await run(
        { command: "export", config: flags.update, env, settings, redactor: io.redactor, signal },
        cliHooks(io, flags),
      );
      // Each account's files on their own: one account refused leaves the others' updates standing.
      const updates = outcome.accounts ? outcome.accounts.map((account) => account.outcome.updated) : [outcome.updated];
      const writes = dryRun ? [] : updates.flatMap((updated) => (updated ? filesToWrite(updated) : []));
      // Every file checked before the first is written: a read-only one does not leave the config half updated.
      for (const { file } of writes) checkWritable(file);
      for (const { file, text } of writes) writeOutput(file, text);
      return show(outcome, io, { format: "text", quiet, dryRun });
    }
    if (flags["add-unlisted"] || flags["dry-run"] || given.has("into") || given.has("account")) {
      throw new UsageError("--add-unlisted, --into, --account and --dry-run go with --update FILE");
    }
    const out = flags.out === undefined || flags.out === "-" ? undefined : flags.out;
    // Before any request: a hand-written config is never overwritten by accident (issue 10).
    if (out !== undefined && !flags.force && existsSync(out)) throw refuseOverwrite(out);
    const target = out ? dirname(resolve(out)) : process.cwd();
    const schemaPath = schemaReference(target, { schemaFile: SCHEMA, version: pkg.version });
    const settings = {
      ...toRunSettings(cliSettings("export", flags, lists), "export"),
      export: { projects: Boolean(flags.projects), schemaPath },
    };
    const outcome = await run({ command: "export", env, settings, redactor: io.redactor, signal }, cliHooks(io, flags));
    if (outcome.exported && out !== undefined) {
      // The file is an output like stdout: a live name that echoes a key must not carry it there (DESIGN §12).
      const text = io.redactor.redact(outcome.exported.yaml);
      if (flags.force) writeOutput(out, text);
      else if (!writeNewOutput(out, text)) throw refuseOverwrite(out);
    }
    return show(outcome, io, { format: "text", quiet, out });
  },
});

/**
 * `export --update` adopts drift wherever it is in the account, and a change says nothing about drift: a read
 * scoped to the touched websites would leave every other drifted line as it is, and the file would still not
 * plan to no changes. So it always reads in full, and says so rather than ignore the flag.
 */
function noChangeScope(update: boolean): UsageError {
  return new UsageError(
    update
      ? "export --update always reads the whole account: it adopts drift wherever it is, which a change does not show; leave out --changed-since and --full"
      : "export writes the whole account: --changed-since and --full go with plan and apply",
  );
}

function refuseOverwrite(file: string): UsageError {
  return new UsageError(
    `${file} already exists: to accept the account's live changes into it, run "sitesync export --update ${file}"; to replace it (losing its comments and edits), add --force`,
  );
}
