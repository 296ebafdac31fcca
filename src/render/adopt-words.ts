/** Why `adopt` cannot place new websites, in words that say which `--into` to pass. Pure. */
import type { AdoptProblem } from "../errors.ts";
import { agree, plural } from "../model/plural.ts";

export function adoptMessage(problem: AdoptProblem): string {
  switch (problem.code) {
    case "not-a-path":
      return "adopt takes the path of the config file to update";
    case "into-one-file":
      return `--into ${problem.path}: the config is the one file ${problem.root}, where new websites go; leave out --into`;
    case "into-twice":
      return "--into is given twice: the config is one account, whose new websites go to one file";
    case "into-unknown":
      return intoUnknown(problem);
    case "into-other-account": {
      const whose =
        problem.holder === undefined ? "no account's websites (the root has several accounts)" : `websites of account ${problem.holder}`;
      const accounts = problem.accounts.map((a) => `account ${a.name} (${listFiles(a.files)})`).join(", ");
      return `--into ${problem.path}: the file holds ${whose}, and this run updates ${accounts}: pass --into one of those files`;
    }
    case "into-many":
      return `--into names ${problem.paths.length} files of account ${problem.account} (${problem.paths.join(", ")}): its new websites go to one file`;
    case "no-into":
      return noInto(problem);
  }
}

/** `--into PATH` names no file of the config: which files may take the new websites, and how to start a client file. */
function intoUnknown(problem: Extract<AdoptProblem, { code: "into-unknown" }>): string {
  const { path, exists, root, takers, accounts: names, globs } = problem;
  const whose = names.length === 0 ? "new websites" : `new websites of ${names.length === 1 ? "account" : "accounts"} ${names.join(", ")}`;
  const where =
    takers.length === 0 ? `no file holds ${whose} yet` : `${whose} go to ${takers.length === 1 ? "" : "one of "}${listFiles(takers)}`;
  const what = exists ? `not a file of this config (${root} does not include it)` : "no such file";
  const account =
    names.length === 0 ? "" : names.length === 1 ? `"account: ${names[0]}" and ` : `"account: NAME" (one of ${names.join(", ")}) and `;
  const at =
    globs.length > 0 ? `at a path ${root}'s include: globs match (${globs.join(", ")})` : `and add an include: glob for it to ${root}`;
  return `--into ${path}: ${what}; ${where}. To start a client file, create ${exists ? "one" : "it"} with ${account}"websites: []" ${at}`;
}

/** Live websites no file lists, with no file to take them: which `--into` to pass. */
function noInto({ count, account, intoGiven, files }: Extract<AdoptProblem, { code: "no-into" }>): string {
  if (account === "") return `${plural(count, "live website")} ${agree(count, "is", "are")} listed in no file, and no file may take them`;
  const why = intoGiven ? "--into names no file of this account" : "the root file holds no account's websites (it has several accounts)";
  const fix = files.length > 0 ? `pass --into one of its files (${listFiles(files)})` : `include a file that says account: ${account}`;
  return `${plural(count, "live website")} of account ${account} ${agree(count, "is", "are")} listed in no file, and ${why}: ${fix}`;
}

/** At most 10 files named, then how many more. */
function listFiles(files: readonly string[]): string {
  const shown = files.slice(0, 10).join(", ");
  return files.length > 10 ? `${shown} and ${files.length - 10} more` : shown;
}
