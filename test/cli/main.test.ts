/** The command line's plumbing, in this process: version, help, and the one check of flags before a run. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createIo } from "../../src/cli/_io.ts";
import { runCli } from "../../src/cli/main.ts";

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io = createIo({}, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
  const code = await runCli(args, { env: {}, io });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

describe("sitesync", () => {
  it("prints the version of package.json", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(await cli(["--version"])).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  it("shows a command's options and examples with --help, and runs nothing", async () => {
    const { code, stdout } = await cli(["plan", "--help", "--max-delete", "3"]);
    expect(code).toBe(0);
    expect(stdout).toContain("--format=<text|json|markdown>");
    expect(stdout).toMatch(/EXAMPLES\n\n {2}SITESYNC_API_KEY=\.\.\. sitesync plan/);
  });

  it.each([
    [["plan", "--max-delete", "3"], "error: unknown flag --max-delete; did you mean --max-deletes? (see --help)\n"],
    [["validate", "--format", "json"], "error: unknown flag --format (see --help)\n"],
    [["plan", "--format", "yaml"], 'error: --format must be text, json or markdown, not "yaml"\n'],
    [["apply", "--format=html"], 'error: --format must be text, json or markdown, not "html"\n'],
    [["destroy"], 'error: unknown command "destroy". Commands: validate, plan, apply, export, sandbox, help, version\n'],
  ])("refuses %j before running anything (exit 1)", async (args, message) => {
    expect(await cli(args)).toEqual({ code: 1, stdout: "", stderr: message });
  });
});
