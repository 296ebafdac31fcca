/**
 * `npm run soak`: randomized runs of plan+apply against a sandbox that injects 5xx answers, connection
 * resets, answers slower than the client's timeout, writes committed but answered by a dropped connection,
 * 429 bursts, and creates and deletes by someone else during listing. Each run is reproducible from its
 * seed (run i of `--seed S` has seed S+i). Exits 1 on any duplicate, lost website, unintended delete,
 * unreported failure, or account that did not equal the config after two applies.
 *
 *   node scripts/soak.ts [--runs 200] [--seed 1] [--parallel 4] [--record] [--verbose]
 *
 * `--record` writes the summary to bench/RESULTS.md. `--parallel` runs that many runs at once (each has its
 * own sandbox); the faults a run gets depend on the order its requests arrive in, so a replay of a seed
 * repeats its account, config, fault rates and fault sequence, but not always which request draws which.
 */
import { parseArgs } from "node:util";
import { machineInfo } from "../bench/machine.ts";
import { writeResultsSection } from "../bench/results-file.ts";
import type { Sandbox } from "../src/index.ts";
import type { ViolationKind } from "./soak/checks.ts";
import { type RunReport, runOne } from "./soak/run-one.ts";

const RUN_TIMEOUT_MS = 120_000;

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "200" },
    seed: { type: "string", default: "1" },
    parallel: { type: "string", default: "4" },
    record: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
  },
});
const runs = whole("runs", values.runs, 1);
const base = whole("seed", values.seed, 0);
const parallel = whole("parallel", values.parallel, 1);

function whole(name: string, value: string, min: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min) throw new Error(`--${name} must be a whole number ≥ ${min}, not "${value}"`);
  return Number(value);
}

/** A run that hangs is a failure too: close its sandbox so that its requests fail and it ends. */
async function guarded(seed: number): Promise<RunReport> {
  let sandbox: Sandbox | undefined;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<RunReport>((resolve) => {
    timer = setTimeout(() => {
      void sandbox?.close();
      resolve({
        seed,
        convergedAfter: undefined,
        violations: [{ kind: "not-converged", detail: `the run took over ${RUN_TIMEOUT_MS / 1000} s` }],
        stats: emptyStats(),
      });
    }, RUN_TIMEOUT_MS);
  });
  const run = runOne(seed, (s) => (sandbox = s)).catch(
    (error: unknown): RunReport => ({
      seed,
      convergedAfter: undefined,
      violations: [
        { kind: "not-converged", detail: `the run crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}` },
      ],
      stats: emptyStats(),
    }),
  );
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function emptyStats(): RunReport["stats"] {
  return {
    requests: 0,
    faults: 0,
    throttled: 0,
    failedReads: 0,
    takenByOthers: 0,
    missedByRead: 0,
    reportedFailures: 0,
    othersActed: false,
  };
}

const started = Date.now();
const reports: RunReport[] = [];
let next = 0;
async function worker(): Promise<void> {
  while (next < runs) {
    const seed = base + next++;
    const report = await guarded(seed);
    reports.push(report);
    if (values.verbose || report.violations.length > 0) printRun(report);
    if (reports.length % 20 === 0) process.stderr.write(`${reports.length}/${runs} runs\n`);
  }
}
await Promise.all(Array.from({ length: Math.min(parallel, runs) }, worker));
const seconds = (Date.now() - started) / 1000;

function printRun(report: RunReport): void {
  const verdict = report.violations.length === 0 ? `ok, converged after ${report.convergedAfter}` : "FAILED";
  process.stderr.write(
    `seed ${report.seed}: ${verdict} (${report.stats.requests} requests, ${report.stats.faults} faults, ${report.stats.throttled} 429s)\n`,
  );
  for (const v of report.violations.slice(0, 8)) process.stderr.write(`  ${v.kind}: ${v.detail}\n`);
  if (report.violations.length > 0)
    process.stderr.write(`  re-run just this one: node scripts/soak.ts --seed ${report.seed} --runs 1 --verbose\n`);
}

const count = (kind: ViolationKind) => reports.reduce((n, r) => n + r.violations.filter((v) => v.kind === kind).length, 0);
const sum = (key: Exclude<keyof RunReport["stats"], "othersActed">) => reports.reduce((n, r) => n + r.stats[key], 0);
const failing = reports
  .filter((r) => r.violations.length > 0)
  .map((r) => r.seed)
  .sort((a, b) => a - b);
const lines: [string, number][] = [
  ["runs", reports.length],
  ["converged after one apply", reports.filter((r) => r.convergedAfter === 1).length],
  ["converged after two", reports.filter((r) => r.convergedAfter === 2).length],
  ["not converged", reports.filter((r) => r.convergedAfter === undefined).length],
  ["duplicates", count("duplicate")],
  ["lost", count("lost")],
  ["unintended deletes", count("unintended-delete")],
  ["unreported failures", count("unreported-failure")],
  ["plans not empty after convergence", count("replan")],
  ["writes after a failed read", count("write-after-failed-read")],
];
const context: [string, number][] = [
  ["requests", sum("requests")],
  ["faults injected", sum("faults")],
  ["429 answers to sitesync (someone else spent the budget)", sum("throttled")],
  ["runs where someone else changed the account mid-read", reports.filter((r) => r.stats.othersActed).length],
  ["reads that failed (no plan, no writes)", sum("failedReads")],
  ["creates refused: someone else had just made the domain", sum("takenByOthers")],
  ["creates refused: a read that passed its checks missed the site", sum("missedByRead")],
  ["items reported failed or skipped", sum("reportedFailures")],
];
const width = Math.max(...[...lines, ...context].map(([label]) => label.length));
const text = [
  `soak: ${reports.length} runs, seeds ${base}..${base + runs - 1}, ${parallel} at a time, ${seconds.toFixed(0)} s`,
  ...lines.map(([label, n]) => `  ${label.padEnd(width)}  ${n}`),
  "context:",
  ...context.map(([label, n]) => `  ${label.padEnd(width)}  ${n}`),
  ...(failing.length > 0
    ? [`failing seeds: ${failing.join(", ")} (re-run one: node scripts/soak.ts --seed <seed> --runs 1 --verbose)`]
    : []),
].join("\n");
process.stdout.write(`${text}\n`);

const failed = failing.length > 0;
if (values.record) {
  const table = [...lines, ...context].map(([label, n]) => `| ${label} | ${n} |`).join("\n");
  writeResultsSection(
    "soak",
    `## Fault soak (\`npm run soak -- --runs ${runs} --seed ${base}\`)\n\n` +
      `${new Date().toISOString().slice(0, 10)}, on ${machineInfo()}; ${parallel} runs at a time, ${seconds.toFixed(0)} s.\n\n` +
      `| | |\n| --- | --- |\n${table}\n`,
  );
  process.stderr.write("wrote bench/RESULTS.md\n");
}
process.exitCode = failed ? 1 : 0;
