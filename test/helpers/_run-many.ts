/**
 * Runs the CLI once per argument list, in one child process (the same `runCli` as bin/sitesync.js), and prints
 * one JSON line of `{code, stdout, stderr}` per run. Lets a test pass its environment to a spawned process
 * instead of mutating its own `process.env`, and pay for one Node start instead of one per run.
 */
import { createIo } from "../../src/cli/_io.ts";
import { runCli } from "../../src/cli/main.ts";

const runs = JSON.parse(process.argv[2] ?? "[]") as string[][];
for (const args of runs) {
  let stdout = "";
  let stderr = "";
  const io = createIo(process.env, {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
  });
  const code = await runCli(args, { env: process.env, io });
  process.stdout.write(`${JSON.stringify({ code, stdout, stderr })}\n`);
}
