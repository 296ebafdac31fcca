/**
 * Server-echoed secrets and terminal escapes at the user's end (DESIGN §12): the real CLI against a server that repeats the secrets it is sent
 * and lists a domain made of terminal escapes. No output (stdout and stderr of every format, --verbose, the
 * plan file, the results file) holds a secret, none reveals one by its effect (every domain is printed whole,
 * never as `(sensitive).example.com`), and no raw control character reaches them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WITHHELD } from "../../src/api/redact.ts";
import { type CliResult, HEADER, sitesyncMany, workdir } from "../helpers/cli.ts";
import { type EchoServer, echoWebsite, FORGED, INJECTION, startEchoServer } from "./echo-server.ts";

const KEY = "EchoK3y-5ecret-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH";
const EVIL = `evil.example.com${INJECTION}`;

let server: EchoServer;
beforeAll(async () => {
  server = await startEchoServer([echoWebsite(1, "shop.example.com"), echoWebsite(2, "old.example.com"), echoWebsite(3, EVIL)]);
});
afterAll(() => server.close());

const config = `${HEADER}policy:
  prune: true
websites:
  - domain: shop.example.com
    privacy: password
    password: \${PW}
  - domain: new.example.com
    privacy: password
    password: \${PW}
`;

const RUNS = [
  ["plan", "--verbose", "--format", "text"],
  ["plan", "--verbose", "--format", "json"],
  ["plan", "--verbose", "--format", "markdown"],
  ["plan", "--verbose", "--out", "plan.json"],
  ["apply", "--verbose", "--auto-approve", "--results", "results.json"],
  ["apply", "--verbose", "--auto-approve", "--format", "json"],
  ["apply", "--verbose", "--auto-approve", "--format", "markdown"],
];

/** Every output of the runs above, named. */
async function outputsFor(password: string): Promise<Record<string, string>> {
  const dir = workdir({ "sitesync.yaml": config });
  const env = { SITESYNC_API_KEY: KEY, SITESYNC_WEBSITES_URL: server.url, PW: password };
  const results: CliResult[] = await sitesyncMany(RUNS, { env, cwd: dir });
  expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0, 3, 3, 3]);
  const outputs: Record<string, string> = {};
  results.forEach((r, i) => {
    outputs[`stdout of ${RUNS[i]!.join(" ")}`] = r.stdout;
    outputs[`stderr of ${RUNS[i]!.join(" ")}`] = r.stderr;
  });
  outputs["plan.json"] = readFileSync(join(dir, "plan.json"), "utf8");
  outputs["results.json"] = readFileSync(join(dir, "results.json"), "utf8");
  return outputs;
}

describe("a server that repeats the secrets it is sent", () => {
  // 1 and 3 characters, each inside every domain; 4, equal to a domain's first label.
  it.each(["e", "hop", "shop"])("neither shows nor reveals the password %j, nor the key", async (password) => {
    const outputs = await outputsFor(password);
    for (const [where, text] of Object.entries(outputs)) {
      expect(text, where).not.toContain(KEY);
      expect(text, where).not.toContain(`«${password}»`);
      expect(text, where).not.toContain("is too weak");
      expect(text, where).not.toContain("(sensitive).");
      expect(text, where).not.toMatch(/\(sensitive\)\w/);
    }
    // The domains are printed whole in every plan, and the refused writes say why they were withheld.
    for (const run of ["text", "json", "markdown"]) {
      const plan = outputs[`stdout of plan --verbose --format ${run}`]!;
      for (const domain of ["shop.example.com", "new.example.com", "old.example.com"]) expect(plan, run).toContain(domain);
    }
    expect(outputs["stdout of apply --verbose --auto-approve --results results.json"]).toContain(WITHHELD);
    expect(outputs["results.json"]).toContain(WITHHELD);
    // --verbose really logged the writes (so the search above covered it).
    expect(outputs["stderr of apply --verbose --auto-approve --results results.json"]).toMatch(/PUT .*\/api\/v1\/websites\/1 422/);
  });
});

describe("a live domain made of terminal escapes and a forged line", () => {
  it("is escaped in every output: no raw control character, and the forged line never starts a line", async () => {
    const outputs = await outputsFor("correct-horse-battery-staple");
    for (const [where, text] of Object.entries(outputs)) {
      expect(text, where).not.toContain("\u001b");
      const lines = text.split("\n").map((line) => line.replace(/^[\s>|"-]+/, ""));
      expect(
        lines.filter((line) => line.startsWith(FORGED)),
        where,
      ).toEqual([]);
    }
    const planText = outputs["stdout of plan --verbose --format text"]!;
    // (The API lowercases domains: API-NOTES §2.4.)
    expect(planText).toContain("- delete  evil.example.com\\e[2k\\e[1a\\nno changes to important.example.com (id 3");
    // The server's own message (a 422 to the DELETE) is escaped the same way.
    expect(outputs["stdout of apply --verbose --auto-approve --results results.json"]).toContain("reason: locked\\e[2K\\e[1A\\nno changes");
  });
});
