/**
 * Scenario 3 (DESIGN §8, CPU bound): `plan` of 100,000 desired against 100,000 live websites in memory, no
 * HTTP. It runs in a fresh child process so that the other scenarios' sandboxes do not count in its memory.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { median, millis, type Row } from "./rows.ts";

export interface PlanCpuSizes {
  websites: number;
  runs: number;
}

interface ChildReport {
  size: number;
  ms: number[];
  summary: { create: number; update: number; unchanged: number; unmanaged: number };
  rssAtStartMb: number;
  rssWithInputsMb: number;
  maxRssMb: number;
}

const CHILD = fileURLToPath(new URL("./plan-cpu-child.ts", import.meta.url));
const TIME_BOUND_MS = 1500;
const MEMORY_BOUND_MB = 400;

export async function planCpuScenario(sizes: PlanCpuSizes): Promise<Row[]> {
  const report = await runChild(sizes.websites, sizes.runs);
  const memory = await runChild(sizes.websites, 0);
  const time = median(report.ms);
  const n = `${report.size.toLocaleString("en")} × ${report.size.toLocaleString("en")}`;
  const { create, update, unchanged, unmanaged } = report.summary;
  return [
    {
      scenario: `3 plan ${n} in memory: time`,
      measured: `${millis(time)} median of ${report.ms.length} (${report.ms.map((v) => Math.round(v)).join(", ")}) after a warm-up`,
      bound: `< ${millis(TIME_BOUND_MS)}`,
      ratio: time / TIME_BOUND_MS,
      ok: time < TIME_BOUND_MS,
      kind: "bound",
    },
    {
      scenario: "3 plan: peak memory of a process that plans once",
      measured:
        `${memory.maxRssMb.toFixed(0)} MB peak RSS (Node + sitesync loaded ${memory.rssAtStartMb.toFixed(0)} MB, ` +
        `with the inputs ${memory.rssWithInputsMb.toFixed(0)} MB)`,
      bound: `< ${MEMORY_BOUND_MB} MB`,
      ratio: memory.maxRssMb / MEMORY_BOUND_MB,
      ok: memory.maxRssMb < MEMORY_BOUND_MB,
      kind: "bound",
    },
    {
      scenario: "3 plan: peak memory of the timing process",
      measured: `${report.maxRssMb.toFixed(0)} MB peak RSS after ${report.ms.length + 1} plans (uncollected garbage included)`,
      bound: "context",
      ok: true,
      kind: "info",
    },
    {
      scenario: "3 plan: what it planned",
      measured: `${create} creates, ${update} updates, ${unchanged} unchanged, ${unmanaged} unmanaged`,
      bound: "context",
      ok: true,
      kind: "info",
    },
  ];
}

function runChild(size: number, runs: number): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, String(size), String(runs)], { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`plan-cpu child exited with ${code}`));
      try {
        resolve(JSON.parse(stdout) as ChildReport);
      } catch (error) {
        reject(new Error(`plan-cpu child printed no report: ${String(error)}`));
      }
    });
  });
}
