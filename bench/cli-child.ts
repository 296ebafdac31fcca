/**
 * Scenario 5's measuring process: one sitesync command, run through the CLI of the built package
 * (bench/built-package.ts) in this fresh process so that its peak memory is the command's own. Prints one JSON
 * line: the exit code, the time with loading sitesync's modules (Node's own start excluded), the time of the
 * command alone (wall and CPU), and the peak RSS.
 *
 *   node bench/cli-child.ts '<path of the build's lib/cli/main.js>' '<argv as JSON>' '<env as JSON>'
 */
import { pathToFileURL } from "node:url";
import type * as Io from "../src/cli/_io.ts";
import type * as Main from "../src/cli/main.ts";

const started = performance.now();
const main = pathToFileURL(process.argv[2] ?? "");
const { runCli } = (await import(main.href)) as typeof Main;
const { createIo } = (await import(new URL("_io.js", main).href)) as typeof Io;

const argv = JSON.parse(process.argv[3] ?? "[]") as string[];
const env = JSON.parse(process.argv[4] ?? "{}") as Record<string, string>;
let stderr = "";
const io = createIo({}, { out: () => {}, err: (line: string) => (stderr += `${line}\n`) });
const loaded = performance.now();
const cpuBefore = process.cpuUsage();
const code = await runCli(argv, { env, io });
const ended = performance.now();
const cpu = process.cpuUsage(cpuBefore);

process.stdout.write(
  `${JSON.stringify({
    code,
    ms: ended - started,
    commandMs: ended - loaded,
    // CPU time of the command (user + system): on a shared machine, wall time also counts other processes.
    commandCpuMs: (cpu.user + cpu.system) / 1000,
    // ru_maxrss (KiB on Linux): the process's peak resident set, Node itself included.
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    // Its start and its end: a long list of problems begins with how many there are, and ends with the total.
    stderr: stderr.length > 3000 ? `${stderr.slice(0, 1000)}\n…\n${stderr.slice(-2000)}` : stderr,
  })}\n`,
);
