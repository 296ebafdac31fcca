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
    expect(stdout).toContain("--format=<text|json|markdown|events>");
    expect(stdout).toMatch(/EXAMPLES\n\n {2}SITESYNC_API_KEY=\.\.\. sitesync plan/);
  });

  it.each([
    [["plan", "--max-delete", "3"], "error: unknown flag --max-delete; did you mean --max-deletes? (see --help)\n"],
    [["validate", "--format", "json"], "error: unknown flag --format (see --help)\n"],
    [["plan", "--format", "yaml"], 'error: --format must be text, json, markdown or events, not "yaml"\n'],
    [["apply", "--format=html"], 'error: --format must be text, json, markdown or events, not "html"\n'],
    [
      ["destroy"],
      'error: unknown command "destroy". Commands: validate, plan, apply, show, export, adopt, matrix, sandbox, help, version\n',
    ],
  ])("refuses %j before running anything (exit 1)", async (args, message) => {
    expect(await cli(args)).toEqual({ code: 1, stdout: "", stderr: message });
  });

  it("prints the version for `sitesync version` too", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(await cli(["version"])).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  it.each([
    ["apply", "help"],
    ["help", "apply"],
    ["apply", "--help"],
  ])("shows apply's help for %s %s, without color into a pipe", async (...args) => {
    const { code, stdout } = await cli(args);
    expect(code).toBe(0);
    expect(stdout).toContain("USAGE sitesync apply [OPTIONS] [PLAN]");
    expect(stdout).toContain("--auto-approve");
    expect(stdout).not.toContain("\u001b[");
  });

  // Terraform habits (DESIGN §7): a single dash never silently means something else.
  it.each([
    [
      ["plan", "-detailed-exitcode"],
      "error: -detailed-exitcode is not read as a flag: use --detailed-exitcode (long flags take two dashes)\n",
    ],
    [["plan", "-out", "plan2.json"], "error: -out is not read as a flag: use --out (long flags take two dashes)\n"],
    [["plan", "-out=plan2.json"], "error: -out is not read as a flag: use --out=plan2.json (long flags take two dashes)\n"],
    [["plan", "-verbose"], "error: -verbose is not read as a flag: use --verbose (long flags take two dashes)\n"],
    [["apply", "-auto-approve"], "error: -auto-approve is not read as a flag: use --auto-approve (long flags take two dashes)\n"],
    [
      ["plan", "-no-color"],
      "error: -no-color is a Terraform flag: sitesync uses NO_COLOR=1 (colors are already off when the output is not a terminal) (see --help)\n",
    ],
    [["plan", "-json"], "error: -json is a Terraform flag: sitesync uses --format json (see --help)\n"],
    [["apply", "-parallelism=2"], "error: -parallelism=2 is a Terraform flag: sitesync uses --concurrency N (see --help)\n"],
    [
      ["plan", "-max-delete", "3"],
      "error: unknown flag -max-delete; did you mean --max-deletes? (long flags take two dashes; see --help)\n",
    ],
    [["plan", "-x"], "error: unknown flag -x (see --help)\n"],
    [["plan", "foo"], 'error: unexpected argument "foo": sitesync plan takes no arguments (see --help)\n'],
    [
      ["apply", "plan.json", "extra.json"],
      'error: unexpected argument "extra.json": sitesync apply takes at most 1 argument (see --help)\n',
    ],
    [
      ["validate", "--quiet", "sitesync.yaml"],
      'error: unexpected argument "sitesync.yaml": sitesync validate takes no arguments (see --help)\n',
    ],
    [["plan", "--out"], "error: --out needs a value (plan.json) (see --help)\n"],
    [["plan", "-o", "--quiet"], "error: --out needs a value (plan.json) (see --help)\n"],
    [["plan", "--detailed-exitcode=false"], "error: --detailed-exitcode takes no value (see --help)\n"],
    [
      ["plna"],
      'error: unknown command "plna": did you mean plan? Commands: validate, plan, apply, show, export, adopt, matrix, sandbox, help, version\n',
    ],
    [
      ["--verbose", "plan"],
      "error: --verbose: a command comes first, flags after it (sitesync <command> --help lists them); commands: validate, plan, apply, show, export, adopt, matrix, sandbox, help, version\n",
    ],
    [["version", "--json"], "error: unknown flag --json (see --help)\n"],
    [["apply", "-auto-approve=true"], "error: -auto-approve is not read as a flag: use --auto-approve (long flags take two dashes)\n"],
    [["plan", "--out", "a.json", "--out", "b.json"], "error: --out is given twice: give it once (see --help)\n"],
    [["plan", "-c", "a.yaml", "--config", "b.yaml"], "error: --config is given twice: give it once (see --help)\n"],
    [["apply", "-yq"], "error: -yq: short flags are not combined; write -y -q (see --help)\n"],
  ])("refuses %j with the spelling to use (exit 1)", async (args, message) => {
    expect(await cli(args)).toEqual({ code: 1, stdout: "", stderr: message });
  });

  // A bare number used to mean milliseconds: it is refused, never silently reread (DESIGN §7), and the
  // suggestion is that old meaning, not 1000 times longer ("5000s" is 83 minutes).
  it.each([
    [
      ["plan", "--timeout", "5"],
      'error: --timeout needs a unit: 5ms (a bare number meant milliseconds before), not "5"; durations take ms, s, m or h\n',
    ],
    [
      ["apply", "--rate-window", "60000"],
      'error: --rate-window needs a unit: 60000ms (a bare number meant milliseconds before), not "60000"; durations take ms, s, m or h\n',
    ],
    [
      ["export", "--max-wait=300"],
      'error: --max-wait needs a unit: 300ms (a bare number meant milliseconds before), not "300"; durations take ms, s, m or h\n',
    ],
    [
      ["sandbox", "--latency", "200"],
      'error: --latency needs a unit: 200ms (a bare number meant milliseconds before), not "200"; durations take ms, s, m or h\n',
    ],
  ])("refuses the duration %j without a unit", async (args, message) => {
    expect(await cli(args)).toEqual({ code: 1, stdout: "", stderr: message });
  });
});
