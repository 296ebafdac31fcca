/**
 * The bounds of DESIGN §12 at the user's end: the real CLI (a child process) against the hostile server over real HTTP, and
 * against hostile config paths. Every case ends with exit 1 and one message naming METHOD, URL and the bound;
 * none crashes, hangs or prints a stack trace.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEADER, sitesync, workdir } from "../helpers/cli.ts";
import { type HostileServer, type Scenario, startHostileServer } from "./server.ts";

let server: HostileServer;
let dir: string;
beforeAll(async () => {
  server = await startHostileServer();
  dir = workdir({ "sitesync.yaml": `${HEADER}websites:\n  - domain: example.com\n` });
});
afterAll(() => server.close());

const KEY = "Zq8sEcReT4kEy0000000000000000000000000000000000000000000000000Kz";

function plan(scenario: Scenario, ...flags: string[]) {
  return sitesync(["plan", "--websites-url", `${server.url}/${scenario}`, ...flags], { env: { SITESYNC_API_KEY: KEY }, cwd: dir });
}

const list = (scenario: Scenario) => `[GET] ${server.url}/${scenario}/api/v1/websites?sort_by=id&sort=asc&per_page=100`;

describe("sitesync plan against a hostile server", () => {
  it("refuses a last_page that does not follow from the total", async () => {
    const result = await plan("lying-last-page");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error: ${list("lying-last-page")}: bound: page 1 says last_page 1000000000 for a total of 1`);
    expect(result.stderr).toContain("the server (or a proxy before it) counts its pages wrong");
    expect(result.stdout).toBe("");
  });

  it("stops an endless links.next chain at the page bound", async () => {
    const result = await plan("endless-next");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error: ${list("endless-next")}: bound: links.next leads past page 4,000`);
  });

  it("stops a gzip bomb at the 32 MiB body cap and says so", async () => {
    const result = await plan("gzip-bomb");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `error: ${list("gzip-bomb")}&page=1: 200 answer body larger than the 32 MiB cap (counted after decompression)`,
    );
    expect(result.stderr).not.toContain("connection failed");
  });

  it("ends the run on a day-long Retry-After, naming the wait and --max-wait", async () => {
    const result = await plan("retry-after-day", "--max-wait", "2m");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `error: ${list("retry-after-day")}&page=1: 429 the server asked to wait 24h (Retry-After: 86400), longer than --max-wait 2m`,
    );
  });

  it("says when it waits out a pause the server asked for, then plans", async () => {
    const result = await plan("retry-after-second");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`waiting 1s: ${server.url} asked for a pause (Retry-After: 1); --max-wait bounds it`);
    expect(result.stdout).toContain("example.com");
  });

  it("refuses a website with a negative id", async () => {
    const result = await plan("negative-id");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /\[GET\] \S+negative-id\S+: 200 unexpected answer: data\[0\]\.id: expected a positive integer id, got -1/,
    );
  });

  it("refuses a --max-wait without a valid duration", async () => {
    const result = await plan("plain", "--max-wait", "forever");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--max-wait must be a duration such as 500ms, 30s or 2m, not "forever"');
  });
});

describe("sitesync validate on a config that is not a small regular file", () => {
  const fifo = () => {
    const path = join(workdir(), "fifo.yaml");
    execFileSync("mkfifo", [path]);
    return path;
  };
  // Sparse: 70 MiB by its size, refused before a byte is read (the cap is 4x a 100,000-website export).
  const big = () => {
    const path = join(workdir(), "big.yaml");
    writeFileSync(path, "");
    truncateSync(path, 70 * 2 ** 20);
    return path;
  };
  it.each([
    ["/dev/zero", () => "/dev/zero", "it is not a regular file (a device, a FIFO or a socket)"],
    ["/dev/urandom", () => "/dev/urandom", "it is not a regular file (a device, a FIFO or a socket)"],
    ["a FIFO", fifo, "it is not a regular file (a device, a FIFO or a socket)"],
    ["a directory", () => dir, "it is a directory"],
    ["a 70 MiB file", big, "it is 70 MiB, more than the 64 MiB a config may be (4 times the export of a 100,000-website account"],
  ])("%s: exit 1 naming the path", async (_name, path, why) => {
    const file = path();
    const result = await sitesync(["validate", "-c", file], { cwd: dir });
    expect(result.code).toBe(1);
    // The file as a whole: no line:column that the file does not have.
    expect(result.stderr).toContain(`${file}: `);
    expect(result.stderr).not.toContain(`${file}:1:1`);
    expect(result.stderr).toContain(why);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part, "utf8") : Buffer.from(part))));
  it.each([
    [
      "a file saved as Latin-1",
      bytes("version: 1\nwebsites:\n  - domain: a.example.com\n    # caf", [0xe9], "\n"),
      "4:10",
      "byte 0xE9 is not UTF-8 (a file saved as Latin-1 or Windows-1252?): save it as UTF-8",
    ],
    ["a Windows-1252 dash after UTF-8 letters", bytes("version: 1\n# é – ü ", [0x96], "\n"), "2:9", "byte 0x96 is not UTF-8"],
    [
      "a file saved as UTF-16",
      Buffer.from("\ufeffversion: 1\n", "utf16le"),
      "1:1",
      "it is UTF-16 (it starts with a UTF-16 byte order mark): save it as UTF-8",
    ],
    [
      "a small binary",
      bytes("ver", [0x00, 0xff, 0xfe], "\n"),
      "1:4",
      "it holds a NUL byte (a binary file?): pass the YAML file with -c/--config",
    ],
  ])("%s: exit 1 at the first byte that is not text, nothing sent", async (_name, content, at, why) => {
    const file = join(workdir(), "sitesync.yaml");
    writeFileSync(file, content);
    const sent = server.requests.length;
    const result = await sitesync(["plan", "-c", file], { cwd: dir, env: { SITESYNC_API_KEY: KEY, SITESYNC_WEBSITES_URL: server.url } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file}:${at} the config is not a UTF-8 text file: ${why}`);
    expect(server.requests.length).toBe(sent);
  });

  it("tells a Latin-1 byte of an included file in that file, at its line and column", async () => {
    const root = workdir({ "sitesync.yaml": `${HEADER}include: ["clients/*.yaml"]\n` });
    mkdirSync(join(root, "clients"));
    writeFileSync(join(root, "clients/a.yaml"), "websites:\n  - domain: a.example.com\n");
    writeFileSync(join(root, "clients/b.yaml"), bytes("websites:\n  - domain: b.example.com # ", [0x96], " dash\n"));
    const result = await sitesync(["validate"], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("clients/b.yaml:2:29 the included file is not a UTF-8 text file: byte 0x96 is not UTF-8");
  });

  it.each([
    ["/dev/zero", () => "/dev/zero", "it is not a regular file (a device, a FIFO or a socket)"],
    ["a FIFO", fifo, "it is not a regular file (a device, a FIFO or a socket)"],
    ["a directory", () => dir, "it is a directory"],
  ])("a saved plan at %s: show and apply exit 1 naming the path", async (_name, path, why) => {
    const file = path();
    for (const command of ["show", "apply"]) {
      const result = await sitesync([command, file], { cwd: dir, env: { SITESYNC_API_KEY: KEY } });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`cannot read the plan file ${file}: ${why}`);
    }
  });
});
