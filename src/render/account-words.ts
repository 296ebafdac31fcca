/**
 * The words of a problem with the account's address or the accounts a run selects (DESIGN §2), for the two
 * surfaces that set them: the CLI (flags) and the Action (inputs). The errors carry the problem as data
 * (errors.ts); each problem is worded here once, for the surface that shows it. Pure.
 */
import type { AccountSelectionProblem, AccountUrlProblem, BaseUrlProblem, UnsetKey, UrlSetting } from "../errors.ts";

/** Who reads an error about the account's address: a CLI user (flags) or a workflow author (Action inputs). */
export type UrlSurface = "cli" | "action";

/** The words of an account-address problem, naming the flag (CLI) or the input (Action) that sets it. */
export function accountUrlMessage(setting: UrlSetting, problem: AccountUrlProblem, surface: UrlSurface, account?: string): string {
  const names = namesOf(setting, surface, account);
  switch (problem.code) {
    case "missing": {
      // The projects address is asked for only where projects are read: say why, so it is not a surprise.
      const api = setting === "projects" ? "projects API address (it reads projects)" : "API address";
      if (account !== undefined) {
        const choose =
          surface === "cli" ? `or pass --account ${account} ${names.setting} <url>` : `or set the ${names.setting} input in its leg`;
        return `account ${account} has no ${setting === "projects" ? "projects " : ""}API address: set ${names.key} in the config, ${choose}`;
      }
      return surface === "cli"
        ? `this command needs the ${api}: pass ${names.setting} <url>, set ${names.env}, or set ${names.key} in the config`
        : `this command needs the ${api}: set the ${names.setting} input (e.g. \`${names.setting}: \${{ vars.${names.env} }}\`) or ${names.key} in the config`;
    }
    case "invalid": {
      const where = { setting: surface === "cli" ? names.setting : `the ${names.setting} input`, env: names.env, file: names.key }[
        problem.source
      ];
      return `${where}: ${problemWords(problem.problem, problem.input)}`;
    }
    case "env-differs": {
      const only = account === undefined ? "" : `--account ${account} `;
      const choose = surface === "cli" ? `pass ${only}${names.setting} <url>` : `set the ${names.setting} input`;
      return (
        `${names.env} (${problem.env}) names another account than ${names.key} in ${problem.configFile} (${problem.file}): ` +
        `unset ${names.env} to use the file's, or ${choose} to choose the account on purpose`
      );
    }
  }
}

/** The words of a fleet's account-selection problem: `--account` and flags (CLI), or the inputs (Action). */
export function accountSelectionMessage(problem: AccountSelectionProblem, surface: UrlSurface): string {
  const cli = surface === "cli";
  switch (problem.code) {
    case "unknown": {
      const what = cli ? `--account ${problem.name}` : `the account input (${problem.name})`;
      const hint = problem.guess ? `; did you mean ${problem.guess}?` : `: one of ${problem.known.join(", ")}`;
      return `${what}: no such account in the config${hint}`;
    }
    case "no-accounts": {
      const what = cli ? `--account ${problem.name}` : `the account input (${problem.name})`;
      return `${what}: the config has no accounts:, it is one account; leave ${cli ? "--account" : "the account input"} out`;
    }
    case "one-only":
      return oneAccountMessage(problem, cli);
    case "plan-account": {
      const other = problem.given.find((name) => name !== problem.planned) ?? "";
      return (
        `the saved plan is the plan of account ${problem.planned}: leave out --account to apply it, ` +
        `or plan account ${other} on its own: sitesync plan --account ${other} --out plan.json`
      );
    }
    case "same-account":
      return (
        `accounts ${problem.pruning} and ${problem.other} are one account of the server (the same websites_url and the same key): ` +
        `with prune, ${problem.pruning} would delete ${problem.other}'s websites; make them one entry under accounts:, ` +
        `their client files naming it`
      );
    case "key-unset":
      return keysUnsetMessage(problem.keys, cli);
  }
}

/** A setting that names one account's address or plan, given to a run of many accounts. */
function oneAccountMessage(problem: Extract<AccountSelectionProblem, { code: "one-only" }>, cli: boolean): string {
  const setting = {
    "websites-url": cli ? "--websites-url" : "the websites-url input",
    "projects-url": cli ? "--projects-url" : "the projects-url input",
    out: "--out (a saved plan)",
    "saved-plan": "a saved plan",
    "reviewed-plan": "a reviewed plan",
  }[problem.setting];
  const known = problem.known.join(", ");
  return cli
    ? `${setting} applies to one account: add --account NAME (one of ${known})`
    : `${setting} applies to one account: set the account input (one of ${known}), one leg per account as in examples/workflows/fleet.yml`;
}

/** Every unset key, each with how to give it; on the CLI, a fleet's accounts may also be left out with `--account`. */
function keysUnsetMessage(keys: readonly UnsetKey[], cli: boolean): string {
  const sentences = keys.map((key) => keyUnsetMessage(key, cli));
  const accounts = new Set(keys.filter((key) => key.account !== "").map((key) => key.account));
  const leaveOut =
    cli && accounts.size > 0 ? `; or leave ${accounts.size === 1 ? "that account" : "those accounts"} out with --account` : "";
  return `${sentences.join("; ")}${leaveOut}`;
}

function keyUnsetMessage({ account, env, api }: UnsetKey, cli: boolean): string {
  const what = api === "projects" ? "projects API key" : "API key";
  const input = api === "projects" ? "projects-api-key" : "api-key";
  if (account === "") {
    return cli
      ? `${env} is not set: export the ${what} of the account (Account → API) before running this command`
      : `no ${what}: set the ${input} input, e.g. \`${input}: \${{ secrets.${env} }}\``;
  }
  return cli
    ? `${env} is not set: export the ${what} of account ${account} (Account → API)`
    : `${env} is not set: run account ${account} in a leg of its own (the account input, with its key as ${input}), ` +
        `or give the step its key: \`env: { ${env}: \${{ secrets.${env} }} }\``;
}

function namesOf(setting: UrlSetting, surface: UrlSurface, account: string | undefined): { setting: string; env: string; key: string } {
  const input = setting === "projects" ? "projects-url" : "websites-url";
  const key = setting === "projects" ? "projects_url" : "websites_url";
  return {
    setting: surface === "cli" ? `--${input}` : input,
    env: setting === "projects" ? "SITESYNC_PROJECTS_URL" : "SITESYNC_WEBSITES_URL",
    key: account === undefined ? key : `accounts.${account}.${key}`,
  };
}

function problemWords(problem: BaseUrlProblem, input: string): string {
  switch (problem.code) {
    case "not-url":
      return `"${input}" is not a URL (expected e.g. https://analytics.example.com)`;
    case "scheme":
      return `only https:// URLs are supported, got ${problem.protocol}//`;
    case "plain-http":
      return `refusing plain http:// to ${problem.hostname}: the API key would cross the network in clear text; use https://`;
    case "credentials":
    case "query":
      return "give the base address only, without credentials, query or fragment";
  }
}
