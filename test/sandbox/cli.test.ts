import { describe, expect, it, vi } from "vitest";
import { createIo, type Io } from "../../src/cli/_io.ts";
import { parseCommandLine } from "../../src/cli/_parse.ts";
import { runCli } from "../../src/cli/main.ts";
import sandboxCommand, { sandboxOptions } from "../../src/cli/sandbox.ts";
import { UsageError } from "../../src/errors.ts";
import { startSandbox } from "../../src/sandbox/index.ts";

function fakeIo(): Io & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  const io = createIo({}, { out: (text) => void lines.push(text), err: (text) => void errors.push(text) });
  return Object.assign(io, { lines, errors });
}

describe("sitesync sandbox", () => {
  it("prints its URL, key and a ready-to-run plan command, serves until stopped, then closes", async () => {
    const io = fakeIo();
    const stop = new AbortController();
    const line = parseCommandLine(["--seed", "12", "--rate-limit", "0", "--log"], sandboxCommand.args, "sandbox");
    const running = sandboxCommand.execute(line, { io, env: {}, signal: stop.signal });
    await vi.waitUntil(() => io.lines.some((line) => line.startsWith("Try:")));
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(io.lines.join("\n"))![1]!;
    const key = /API key: (\S+)/.exec(io.lines.join("\n"))![1]!;
    expect(io.lines.join("\n")).toContain(`SITESYNC_API_KEY=${key} npx sitesync plan --websites-url ${url}`);
    const response = await fetch(`${url}/api/v1/websites?api_token=${key}`, { headers: { Accept: "application/json" } });
    expect(((await response.json()) as { meta: { total: number } }).meta.total).toBe(12);
    expect(io.errors.some((line) => line.startsWith("GET /api/v1/websites 200"))).toBe(true);
    expect(io.errors.join("\n")).not.toContain(key);
    stop.abort();
    expect(await running).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });

  it("serves the key of SITESYNC_API_KEY without printing it (it may be a real account's)", async () => {
    const io = fakeIo();
    const stop = new AbortController();
    const secret = "RealAccountKey-do-not-print-0123456789";
    const env = { SITESYNC_API_KEY: secret };
    const running = runCli(["sandbox", "--rate-limit", "0"], { env, io, signal: stop.signal });
    await vi.waitUntil(() => io.lines.some((line) => line.startsWith("Try:")));
    const output = [...io.lines, ...io.errors].join("\n");
    expect(output).not.toContain(secret);
    expect(output).toContain("API key: the value of SITESYNC_API_KEY");
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]!;
    const response = await fetch(`${url}/api/v1/websites`, { headers: { Accept: "application/json", Authorization: `Bearer ${secret}` } });
    expect(response.status).toBe(200);
    stop.abort();
    expect(await running).toBe(0);
  });

  it("takes the key from --key, else SITESYNC_API_KEY", () => {
    expect(sandboxOptions({ key: "from-flag" }, { SITESYNC_API_KEY: "from-env" }).apiKey).toBe("from-flag");
    expect(sandboxOptions({}, { SITESYNC_API_KEY: "from-env" }).apiKey).toBe("from-env");
    expect(sandboxOptions({}, {}).apiKey).toBeUndefined();
  });

  it("parses durations, rates and limits", () => {
    const options = sandboxOptions(
      {
        "rate-window": "10s",
        latency: "50ms",
        "rate-limit": "120",
        "website-limit": "-1",
        "put-missing": "404",
        "error-rate": "0.1",
        "fault-seed": "7",
      },
      {},
    );
    expect(options).toMatchObject({ rateWindowMs: 10_000, latencyMs: 50, rateLimit: 120, websiteLimit: -1, putMissing: 404 });
    expect(options.faults).toMatchObject({ errorRate: 0.1, seed: 7 });
    expect(sandboxOptions({ "rate-window": "1500ms" }, {}).rateWindowMs).toBe(1500);
    // A bare number once meant milliseconds: it is refused with the units named, never reinterpreted.
    expect(() => sandboxOptions({ "rate-window": "1500" }, {})).toThrow(
      '--rate-window needs a unit: 1500ms (a bare number meant milliseconds before), not "1500"',
    );
    expect(sandboxOptions({}, {}).faults).toBeUndefined();
  });

  it("refuses bad values with the flag's name", async () => {
    expect(() => sandboxOptions({ "error-rate": "2" }, {})).toThrow(UsageError);
    expect(() => sandboxOptions({ port: "70000" }, {})).toThrow(/--port/);
    const io = fakeIo();
    expect(await runCli(["sandbox", "--put-missing", "418"], { env: {}, io })).toBe(1);
    expect(io.errors).toEqual(['error: --put-missing must be 500 or 404, not "418"\n']);
  });

  it("says plainly that a sandbox port is busy or a --persist folder is missing, not that sitesync has a bug", async () => {
    const busy = await startSandbox({ rateLimit: 0 });
    try {
      const port = new URL(busy.url).port;
      for (const [args, message] of [
        [["sandbox", "--port", port], `error: port ${port} is already in use: pick another with --port, or --port 0 for a free one\n`],
        [
          ["sandbox", "--persist", "/nonexistent-folder/account.json"],
          "error: cannot write /nonexistent-folder/account.json (ENOENT): check the folder exists and is writable\n",
        ],
      ] as const) {
        const io = fakeIo();
        expect(await runCli([...args], { env: {}, io })).toBe(1);
        expect(io.errors.join("")).toBe(message);
      }
    } finally {
      await busy.close();
    }
  });
});
