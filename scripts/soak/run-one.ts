/**
 * One soak run: a random account and config from the seed, then plan+apply twice through the library
 * against a faulty sandbox, checking after each apply against the store directly, with faults off.
 */
import {
  ApiError,
  type ApplyResult,
  apply,
  createClient,
  type Live,
  type Plan,
  plan,
  readLive,
  type Sandbox,
  startSandbox,
} from "../../src/index.ts";
import { differences, endOfRunViolations, unreportedFailures, type Violation } from "./checks.ts";
import { makeScenario, type Scenario } from "./scenario.ts";
import { BURST_PATH, othersHook, scheduleBursts, watchStore } from "./someone-else.ts";

export interface RunReport {
  seed: number;
  /** 1 or 2: the account equalled the config after that many applies; undefined: not after two. */
  convergedAfter: 1 | 2 | undefined;
  violations: Violation[];
  /** What the run went through, for the summary. */
  stats: {
    requests: number;
    faults: number;
    throttled: number;
    /** Reads that failed (integrity or exhausted retries): no plan, so no write, followed. */
    failedReads: number;
    /** Creates the API refused as "already taken": someone else had just created the domain (a race). */
    takenByOthers: number;
    /**
     * Creates refused because the domain existed from the start: the read passed every integrity check yet
     * missed the website, since someone else's delete on an already-read page shifted it there (DESIGN §5).
     */
    missedByRead: number;
    /** Items apply reported failed or skipped (the reported failures). */
    reportedFailures: number;
    othersActed: boolean;
  };
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export async function runOne(seed: number, onSandbox: (sandbox: Sandbox) => void = () => {}): Promise<RunReport> {
  const scenario = makeScenario(seed);
  let sandbox: Sandbox | undefined;
  let watch: ReturnType<typeof watchStore> | undefined;
  const log = othersHook(
    scenario,
    () => sandbox,
    () => watch,
  );
  sandbox = await startSandbox({
    websites: scenario.account,
    rateLimit: scenario.throttle?.limit ?? 0,
    ...(scenario.throttle ? { rateWindowMs: scenario.throttle.windowMs } : {}),
    latencyMs: scenario.latencyMs,
    faults: scenario.faults,
    log,
  });
  onSandbox(sandbox);
  watch = watchStore(sandbox);
  const stopBursts = scheduleBursts(scenario, sandbox.url);
  const report: RunReport = {
    seed,
    convergedAfter: undefined,
    violations: [],
    stats: {
      requests: 0,
      faults: 0,
      throttled: 0,
      failedReads: 0,
      takenByOthers: 0,
      missedByRead: 0,
      reportedFailures: 0,
      othersActed: false,
    },
  };
  try {
    const start = { initial: new Map(sandbox.store.websites().map((w) => [w.id, w.domain])) };
    const first = await round(scenario, sandbox, report, { othersListen: true, watch });
    if (first.converged) report.convergedAfter = 1;
    sandbox.setFaults({ ...scenario.faults, seed: (scenario.seed ^ 0x9e3779b9) >>> 0 });
    const second = await round(scenario, sandbox, report, { othersListen: false, watch });
    // An account that already equals the config must plan nothing: apply is idempotent.
    if (first.converged && second.plan && second.plan.changes.length > 0) {
      report.violations.push({ kind: "replan", detail: `converged, yet the next plan has ${second.plan.changes.length} changes` });
    }
    if (!first.converged && second.converged) report.convergedAfter = 2;
    if (report.convergedAfter === undefined) {
      report.violations.push({ kind: "not-converged", detail: differences(scenario, sandbox.store).slice(0, 5).join("; ") });
    }
    report.violations.push(...endOfRunViolations(scenario, start, watch, sandbox.store));
    tally(report, sandbox, watch);
    return report;
  } finally {
    stopBursts();
    await sandbox.close();
  }
}

interface RoundResult {
  plan: Plan | undefined;
  converged: boolean;
}

/** Read, plan, apply with faults on; then, faults off, check what apply reported against the store. */
async function round(
  scenario: Scenario,
  sandbox: Sandbox,
  report: RunReport,
  options: { othersListen: boolean; watch: ReturnType<typeof watchStore> },
): Promise<RoundResult> {
  const client = createClient({
    websitesUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    ...scenario.client,
    ...(scenario.throttle ? { rateWindowMs: scenario.throttle.windowMs } : {}),
  });
  const firstRequest = sandbox.requests.length;
  options.watch.listening = options.othersListen;
  let live: Live | undefined;
  try {
    live = await readLive(client, {});
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    report.stats.failedReads++;
  } finally {
    options.watch.listening = false;
  }
  if (!live) {
    // DESIGN §5: a failed read never yields a plan, and so never a write.
    const writes = sandbox.requests.slice(firstRequest).filter((r) => WRITES.has(r.method)).length;
    if (writes > 0) report.violations.push({ kind: "write-after-failed-read", detail: `${writes} writes after a failed read` });
    sandbox.setFaults(undefined);
    return { plan: undefined, converged: differences(scenario, sandbox.store).length === 0 };
  }
  const planned = plan({ websites: scenario.desired, policy: scenario.policy }, live, {
    configFile: "soak.yaml",
    configDigest: "soak",
    allowEmpty: true,
  });
  let result: ApplyResult | undefined;
  if (planned.refusals.length === 0) {
    result = await apply(planned, client, { passwordOf: (domain) => scenario.passwords.get(domain) });
    report.stats.reportedFailures += result.counts.failed + result.counts.skipped;
  }
  sandbox.setFaults(undefined);
  if (result) report.violations.push(...unreportedFailures(result, planned, scenario, sandbox.store));
  return { plan: planned, converged: differences(scenario, sandbox.store).length === 0 };
}

function tally(report: RunReport, sandbox: Sandbox, watch: ReturnType<typeof watchStore>): void {
  const ours = sandbox.requests.filter((r) => r.path !== BURST_PATH);
  report.stats.requests = ours.length;
  report.stats.faults = ours.filter((r) => r.fault !== undefined).length;
  report.stats.throttled = ours.filter((r) => r.status === 429).length;
  report.stats.takenByOthers = watch.takenRefusals.filter((r) => r.creator === "other").length;
  report.stats.missedByRead = watch.takenRefusals.filter((r) => r.creator === undefined).length;
  report.stats.othersActed = watch.otherCreated.size > 0 || watch.otherDeleted.size > 0;
}
