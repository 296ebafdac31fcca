/**
 * The floor of the loading rows (DESIGN §8 "Loading"): js-yaml's `load` of a file, alone in a fresh process, so
 * that its CPU time and peak memory are its own. Prints one JSON line.
 *
 *   node bench/load-floor-child.ts '<file>'
 */
import { readFileSync } from "node:fs";
import { load } from "js-yaml";

const text = readFileSync(process.argv[2] ?? "", "utf8");
const cpuBefore = process.cpuUsage();
const value = load(text);
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(
  `${JSON.stringify({
    commandCpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    kept: typeof value,
  })}\n`,
);
