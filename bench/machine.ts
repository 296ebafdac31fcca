/** The machine a benchmark ran on, for bench/RESULTS.md: figures mean little without it. */
import { cpus, totalmem } from "node:os";

export function machineInfo(): string {
  const list = cpus();
  const model = list[0]?.model.trim() ?? "unknown CPU";
  const memoryGb = (totalmem() / 1024 ** 3).toFixed(1);
  return `${model}, ${list.length} cores, ${memoryGb} GB memory, Node ${process.version}, ${process.platform}-${process.arch}`;
}
