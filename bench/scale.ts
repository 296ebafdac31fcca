/**
 * Scenario 5 (DESIGN §8, scale end to end; issue 20): a 100,000-website sandbox account is exported, the file
 * validated, and planned against the account it came from: no changes (`adopt`'s rows are scenario 9's,
 * bench/adopt.ts). Each command runs in a fresh process (bench/cli-child.ts), so its
 * time and peak memory are its own; the sandbox runs in another (bench/sandbox-process.ts). The commands are
 * the built package's (bench/built-package.ts), as users run them: no type stripping of the sources.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPackage } from "./built-package.ts";
import { type Row, seconds } from "./rows.ts";
import { startSandboxProcess } from "./sandbox-process.ts";

export interface ScaleSizes {
  /** Websites of the account exported, validated and planned. */
  websites: number;
}

interface ChildReport {
  code: number;
  ms: number;
  commandMs: number;
  commandCpuMs: number;
  maxRssMb: number;
  stderr: string;
}

const CHILD = fileURLToPath(new URL("./cli-child.ts", import.meta.url));
/** DESIGN §8 says "in seconds" for export, validate and plan of 100,000 websites. */
const COMMAND_BOUND_MS = 20_000;
/** What Node gives itself as heap on a machine with 8 GB, so that such a machine runs them. */
const MEMORY_BOUND_MB = 2048;

export async function scaleScenario(sizes: ScaleSizes): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "sitesync-bench-scale-"));
  try {
    const cli = buildPackage(join(dir, "package"));
    return await roundTrip(cli, sizes.websites, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function roundTrip(cli: string, size: number, dir: string): Promise<Row[]> {
  const sandbox = await startSandboxProcess({ seed: size, rateLimit: 0 });
  const file = join(dir, "account.yaml");
  try {
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const exported = await command(cli, ["export", "--out", file], env, "export");
    const mb = statSync(file).size / 2 ** 20;
    const validated = await command(cli, ["validate", "-c", file], {}, "validate");
    const planned = await command(cli, ["plan", "--detailed-exitcode", "--quiet", "-c", file], env, "plan");
    const n = size.toLocaleString("en");
    return [
      ...timeAndMemory(`5 export of ${n} websites (a ${mb.toFixed(1)} MiB file)`, exported),
      ...timeAndMemory(`5 validate (load + validate) of that file`, validated),
      ...timeAndMemory(`5 plan of that file against the account`, planned),
      {
        scenario: `5 round trip: export of ${n} websites, then plan`,
        measured: planned.code === 0 ? "no changes (exit 0)" : `exit ${planned.code}: ${planned.stderr.trim().split("\n").at(-1)}`,
        bound: "no changes (exit 0)",
        ok: planned.code === 0,
        kind: "count",
      },
    ];
  } finally {
    await sandbox.close();
  }
}

function timeAndMemory(label: string, report: ChildReport): Row[] {
  return [
    {
      scenario: `${label}: time`,
      measured: `${seconds(report.ms)} (the command alone ${seconds(report.commandMs)}, CPU ${seconds(report.commandCpuMs)})`,
      bound: `< ${seconds(COMMAND_BOUND_MS)}`,
      ratio: report.ms / COMMAND_BOUND_MS,
      ok: report.ms < COMMAND_BOUND_MS,
      kind: "bound",
    },
    {
      scenario: `${label}: peak memory`,
      measured: `${report.maxRssMb.toFixed(0)} MB peak RSS`,
      bound: `< ${MEMORY_BOUND_MB} MB`,
      ratio: report.maxRssMb / MEMORY_BOUND_MB,
      ok: report.maxRssMb < MEMORY_BOUND_MB,
      kind: "bound",
    },
  ];
}

/** One command in a fresh process; a failing one (other than plan's exit 2) ends the scenario. */
function command(cli: string, argv: string[], env: Record<string, string>, what: string): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const args = [CHILD, cli, JSON.stringify(argv), JSON.stringify(env)];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.on("error", reject);
    child.on("close", (status) => {
      try {
        const report = JSON.parse(stdout) as ChildReport;
        if (report.code !== 0 && report.code !== 2) reject(new Error(`${what} exited ${report.code}:\n${report.stderr}`));
        else resolve(report);
      } catch (error) {
        reject(new Error(`${what}: the child exited ${status} without a report (${String(error)})`));
      }
    });
  });
}
