/**
 * The settings as the run takes them (run/types.ts `RunSettings`), from the one typed object either adapter
 * read (run/read-settings.ts). What the adapter adds of its own (a saved or reviewed plan, where the Action
 * writes its results, the plan's base on a pull request) it adds beside this.
 */
import type { SettingCommand } from "./setting.ts";
import { SETTINGS, type SettingName, type SettingValues } from "./settings.ts";
import type { RunSettings } from "./types.ts";

/** `values` for `command`: each setting that applies to it, in the run's terms (durations in ms, counts as numbers). */
export function toRunSettings(values: SettingValues, command: SettingCommand): RunSettings {
  const on = (name: SettingName) => (SETTINGS[name].commands as readonly SettingCommand[]).includes(command);
  const { target, exclude, account, changedSince, maxDeletes, results, planOut, exportOut, into } = values;
  return {
    ...(on("websitesUrl") ? { websitesUrl: values.websitesUrl } : {}),
    ...(on("projectsUrl") ? { projectsUrl: values.projectsUrl } : {}),
    ...(on("concurrency") ? { concurrency: values.concurrency } : {}),
    ...(on("timeout") ? { timeoutMs: values.timeout } : {}),
    ...(on("maxWait") ? { maxWaitMs: values.maxWait } : {}),
    // Unsaid, the window is learned per server (DESIGN §6).
    ...(on("rateWindow") && values.rateWindow !== undefined ? { rateWindowMs: values.rateWindow } : {}),
    ...(on("syncWriteOnly") ? { syncWriteOnly: values.syncWriteOnly } : {}),
    ...(on("allowEmpty") ? { allowEmpty: values.allowEmpty } : {}),
    ...(on("maxDeletes") && maxDeletes !== undefined ? { maxDeletes } : {}),
    ...(on("target") && target.length + exclude.length > 0 ? { selection: { target, exclude } } : {}),
    ...(on("changedSince") && changedSince !== undefined
      ? { changedSince: { ref: changedSince, ...(values.full ? { full: true } : {}) } }
      : {}),
    ...(on("account") && account.length > 0 ? { accounts: account } : {}),
    ...(on("detailedExitcode") ? { detailedExitcode: values.detailedExitcode } : {}),
    ...(on("verify") ? { verify: values.verify } : {}),
    ...(on("results") && results !== undefined ? { resultsFile: results } : {}),
    ...(on("strictEnv") ? { strictEnv: values.strictEnv } : {}),
    ...(on("planOut") && planOut !== undefined ? { planFile: planOut } : {}),
    // `--out -`, or none: the config goes to stdout.
    ...(on("exportOut") && exportOut !== undefined && exportOut !== "-" ? { exportFile: exportOut } : {}),
    ...(on("force") ? { force: values.force } : {}),
    ...(on("projects") ? { projects: values.projects } : {}),
    ...(on("addUnlisted") ? { addUnlisted: values.addUnlisted } : {}),
    ...(on("into") && into.length > 0 ? { into } : {}),
    ...(on("dryRun") ? { dryRun: values.dryRun } : {}),
  };
}
