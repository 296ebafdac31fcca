/**
 * Scenario 5's measuring process: one sitesync command, run through the CLI in this fresh process so that its
 * peak memory is the command's own. Prints one JSON line: the exit code, the time with module loading (Node's
 * own start excluded), the time of the command alone (wall and CPU), and the peak RSS.
 *
 *   node bench/cli-child.ts '<argv as JSON>' '<env as JSON>'
 */
const started = performance.now();
const { runCli } = await import("../src/cli/main.ts");
const { createIo } = await import("../src/cli/_io.ts");

const argv = JSON.parse(process.argv[2] ?? "[]") as string[];
const env = JSON.parse(process.argv[3] ?? "{}") as Record<string, string>;
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
    stderr: stderr.slice(-2000),
  })}\n`,
);
