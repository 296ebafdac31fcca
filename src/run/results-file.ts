/**
 * The results file (`--results FILE`, the Action's `results-file`): what apply did to every change, with its
 * reason as a code and, for a person reading the file, in words. A config without `accounts:` writes its one
 * account's report; a config with `accounts:` writes every account's report under its name, as `--format json` does.
 */
import type { RunScope } from "./scope.ts";
import type { AccountRun, ApplyReport } from "./types.ts";
import { writeOutput } from "./write-file.ts";

/** Writes the results of the accounts that applied, if a file was asked for; returns it when written. */
export function writeResults(scope: RunScope, accounts: readonly AccountRun[]): string | undefined {
  const file = scope.settings.resultsFile;
  const applied = accounts.filter((account) => account.results !== undefined);
  if (file === undefined || applied.length === 0) return undefined;
  const words = scope.hooks.noteOf ?? (() => undefined);
  const report = (results: ApplyReport) => ({ ...results, items: results.items.map((item) => ({ ...item, note: words(item) })) });
  const named = accounts.some((account) => account.name !== "");
  const data = named
    ? { format: "sitesync-accounts", version: 1, accounts: applied.map((a) => ({ account: a.name, ...report(a.results!) })) }
    : report(applied[0]!.results!);
  writeOutput(file, `${scope.redactor.json(data)}\n`);
  return file;
}
