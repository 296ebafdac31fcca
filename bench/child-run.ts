/** One measuring child process of the loading scenario (bench/cli-child.ts, bench/load-floor-child.ts) and its report. */
import { spawn } from "node:child_process";

export interface Report {
  code: number;
  ms: number;
  commandCpuMs: number;
  maxRssMb: number;
  stderr: string;
}

/** One child process; its JSON report. `anyCode`: a refusal is what is measured. */
export function run(args: string[], anyCode = false): Promise<Report> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (status) => {
      try {
        const report = { code: 0, ms: 0, stderr: "", ...(JSON.parse(stdout) as Partial<Report>) } as Report;
        if (!anyCode && report.code === 1) reject(new Error(`${args.join(" ")} exited 1:\n${report.stderr}`));
        else resolve(report);
      } catch (error) {
        reject(new Error(`exited ${status} without a report (${String(error)}): ${stderr.slice(-2000)}`));
      }
    });
  });
}
