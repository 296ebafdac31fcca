/**
 * Scenario 9 (DESIGN §8, honest estimates and pacing under load): at the real API's 60 requests a minute and
 * concurrency 4, two full plans of an account back to back (the second starts in the window the first left)
 * and the apply of the second's saved plan, through the real CLI, while both cores are kept busy. Each run
 * gets at most one 429; each plan's estimate (a range: `plan/estimate.ts`) holds, within 25%, the time of its
 * own run and of the run after it (the second plan after the first, the apply after the second).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PlanEstimate } from "../src/index.ts";
import { countRequests } from "./count-requests.ts";
import { type Row, seconds } from "./rows.ts";
import { type SandboxProcess, startSandboxProcess } from "./sandbox-process.ts";

const BIN = fileURLToPath(new URL("../bin/sitesync.js", import.meta.url));
/** DESIGN §8: the estimate is within 25% of the measured time. */
const TOLERANCE = 0.25;

export interface EstimateSizes {
  websites: number;
  /** The sandbox's throttle: `limit` requests per `windowMs`. */
  limit: number;
  windowMs: number;
  /** Keep every core busy with a spinning process while the runs go (a loaded machine). */
  busy: boolean;
}

interface Measured {
  label: string;
  ms: number;
  throttled: number;
  estimate?: PlanEstimate;
  words?: string;
}

export async function estimateScenario(sizes: EstimateSizes): Promise<Row[]> {
  const sandbox = await startSandboxProcess({ seed: sizes.websites, rateLimit: sizes.limit, rateWindowMs: sizes.windowMs, latencyMs: 5 });
  const dir = mkdtempSync(join(tmpdir(), "sitesync-bench-estimate-"));
  const spinners = sizes.busy ? cpus().map(spin) : [];
  try {
    writeFileSync(join(dir, "sitesync.yaml"), configFor(await sandbox.websites()));
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const run = (label: string, args: string[], out?: string) => measure(sandbox, dir, env, label, args, out);
    const first = await run("first plan", ["plan", "--out", "first.json"], "first.json");
    const second = await run("second plan, straight after", ["plan", "--out", "second.json"], "second.json");
    const applied = await run("apply of the second's plan, straight after", ["apply", "second.json", "--auto-approve"]);
    return rows(sizes, first, second, applied);
  } finally {
    for (const spinner of spinners) spinner.kill();
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  }
}

/** Lists a few of the seeded websites as they are, and four changes: one create, two updates, one delete. */
function configFor(live: { domain: string; email: number | null }[]): string {
  const lines = ["version: 1", "websites:"];
  for (const site of live.slice(0, 10)) lines.push(`  - domain: ${site.domain}`);
  for (const site of live.slice(10, 12)) lines.push(`  - domain: ${site.domain}`, `    email: ${site.email === 1 ? "false" : "true"}`);
  lines.push(`  - domain: ${live[12]!.domain}`, "    state: absent", "  - domain: new-estimate.bench.example.com");
  return `${lines.join("\n")}\n`;
}

async function measure(
  sandbox: SandboxProcess,
  dir: string,
  env: Record<string, string>,
  label: string,
  args: string[],
  out?: string,
): Promise<Measured> {
  const before = countRequests(await sandbox.requests()).throttled;
  const started = performance.now();
  const { code, stdout, stderr } = await cli(args, dir, env);
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`${label}: sitesync ${args.join(" ")} exited ${code}: ${stderr.slice(-500)}`);
  const throttled = countRequests(await sandbox.requests()).throttled - before;
  const words = stdout.split("\n").find((line) => line.startsWith("≈ "));
  if (!out) return { label, ms, throttled, ...(words ? { words } : {}) };
  const estimate = (JSON.parse(readFileSync(join(dir, out), "utf8")) as { estimate: PlanEstimate }).estimate;
  return { label, ms, throttled, estimate, ...(words ? { words } : {}) };
}

function rows(sizes: EstimateSizes, first: Measured, second: Measured, applied: Measured): Row[] {
  const rate = `${sizes.limit}/${sizes.windowMs / 1000}s`;
  const loaded = sizes.busy ? ", every core busy" : "";
  const prefix = `8 ${sizes.websites.toLocaleString("en")} sites at ${rate}, concurrency 4${loaded}`;
  return [
    held(`${prefix}: first plan's estimate, its own time`, first, first),
    held(`${prefix}: first plan's estimate, the second plan's time`, first, second),
    held(`${prefix}: second plan's estimate, its own time (started in the window the first left)`, second, second),
    held(`${prefix}: second plan's estimate, the apply of its saved plan`, second, applied),
    {
      scenario: `${prefix}: 429 answers per run (first plan, second plan, apply)`,
      measured: [first, second, applied].map((m) => m.throttled).join(", "),
      bound: "≤ 1 each",
      ok: [first, second, applied].every((m) => m.throttled <= 1),
      kind: "count",
    },
  ];
}

/** A row: the time of `run` within 25% of the range `planned` estimated (DESIGN §8), beside its words. */
function held(scenario: string, planned: Measured, run: Measured): Row {
  const estimate = planned.estimate!;
  const least = estimate.seconds * 1000;
  const most = (estimate.secondsAtMost ?? estimate.seconds) * 1000;
  const reference = run.ms < least ? least : Math.max(most, 1);
  return {
    scenario,
    measured: seconds(run.ms),
    bound: `${seconds(least)} to ${seconds(most)}, ± 25% (${planned.words ?? "no estimate printed"})`,
    ratio: run.ms / reference,
    ok: run.ms >= least * (1 - TOLERANCE) && run.ms <= most * (1 + TOLERANCE),
    kind: "bound",
  };
}

function cli(args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** A process that keeps one core busy until it is killed (by this bench, by its pid). */
function spin(): ChildProcess {
  return spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
}
