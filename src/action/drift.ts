/**
 * `command: drift` (DESIGN §7, "Drift, built in"): which accounts differ from the config, and, with
 * `on-drift: pull-request`, each drifted account's live changes accepted into the config by `adopt`, run
 * from this bundle (run/adopt-step.ts) with nothing written to the checkout: the files' new text goes to the
 * pull request's branch (drift-pull.ts).
 */
import { adoptMarkdown, errorMarkdown } from "../render/index.ts";
import { run } from "../run/run.ts";
import { toRunSettings } from "../run/to-run-settings.ts";
import type { AccountRun, Outcome } from "../run/types.ts";
import { workspacePath } from "./annotations.ts";
import type { DriftAccount, DriftReport, Report, RunContext } from "./run-context.ts";

export async function driftOf(ctx: RunContext, outcome: Outcome): Promise<DriftReport> {
  const mode = ctx.inputs.onDrift;
  const accounts: DriftAccount[] = outcome.accounts.map((account) => ({
    account: account.name,
    drifted: (account.plan?.changes.length ?? 0) > 0,
    known: account.error === undefined && account.plan !== undefined,
  }));
  const drifted = accounts.filter((account) => account.drifted).map((account) => account.account);
  if (mode !== "pull-request" || drifted.length === 0) return { mode, accounts };
  const adoptions = await adopt(ctx, drifted);
  return {
    mode,
    accounts: accounts.map((account) => {
      const adoption = adoptions.get(account.account);
      return adoption ? { ...account, adoption } : account;
    }),
  };
}

/** The job summary of a drift check with its adopt reports after the plans: what each pull request will hold. */
export function withAdoptions(report: Report, drift: DriftReport): Report {
  const adopted = drift.accounts.flatMap((account) => (account.adoption ? [account.adoption.report] : []));
  if (adopted.length === 0) return report;
  const summary = [report.summary.trimEnd(), ...adopted.map((r) => r.summary.trimEnd())].join("\n\n");
  const bodies = adopted.flatMap((r) => (r.details ? [`#### ${r.details.title}\n\n${r.details.body}`] : []));
  const details = report.details ? [`#### ${report.details.title}\n\n${report.details.body}`] : [];
  const all = [...details, ...bodies];
  return {
    ...report,
    summary,
    ...(all.length > 0 ? { details: { title: report.details?.title ?? adopted[0]!.details!.title, body: all.join("\n\n") } } : {}),
  };
}

type Adoption = NonNullable<DriftAccount["adoption"]>;

/** The drifted accounts adopted, as `sitesync adopt --dry-run` would: each one's changed files and its report. */
async function adopt(ctx: RunContext, accounts: readonly string[]): Promise<Map<string, Adoption>> {
  const named = accounts.filter((name) => name !== "");
  const settings = { ...toRunSettings(ctx.inputs.settings, "adopt"), dryRun: true, ...(named.length > 0 ? { accounts: named } : {}) };
  const outcome = await run({
    command: "adopt",
    config: ctx.inputs.config,
    env: ctx.env,
    secrets: ctx.inputs.keysGiven,
    settings,
    redactor: ctx.redactor,
  });
  if (outcome.error !== undefined) throw outcome.error;
  return new Map(outcome.accounts.map((account) => [account.name, adoptionOf(ctx, account)]));
}

function adoptionOf(ctx: RunContext, account: AccountRun): Adoption {
  const pathOf = (file: string) => workspacePath(file, ctx.event.workspace);
  const { adopted } = account;
  if (account.error !== undefined || !adopted) {
    const report: Report = { ...errorMarkdown("adopt", ctx.configLabel, account.error), exitCode: account.exitCode };
    return { files: [], report };
  }
  const files = adopted.files.flatMap(({ file, source, result }) =>
    result.ok && result.text !== source ? [{ path: pathOf(file), text: result.text }] : [],
  );
  const report: Report = { ...adoptMarkdown(adopted, { configLabel: ctx.configLabel, pathOf }), exitCode: account.exitCode };
  return { files, report };
}
