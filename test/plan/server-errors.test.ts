/**
 * A server that is not where the config says, or too slow, through the real CLI against the sandbox over real
 * HTTP: the message says where and what to do. A wrong address points at --websites-url, and a timeout reads
 * as a sentence naming the flag that raises it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, workdir } from "../helpers/cli.ts";

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

describe("a server it cannot reach as configured", () => {
  it("points at --websites-url when the URL has /api too many (404 on /api/api/v1) or nobody answers", async () => {
    sandbox = await startSandbox({
      rateLimit: 0,
      websites: [{ domain: "drift.example.com", privacy: 1 }, { domain: "a.example.org" }, { domain: "b.example.org" }],
    });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const dir = workdir({
      "sitesync.yaml": `${HEADER}websites:\n  - domain: drift.example.com\n    privacy: public\n  - domain: new.example.com\n    favorite: true\n`,
    });
    const hint = "check --websites-url (SITESYNC_WEBSITES_URL, websites_url): it is the base address of the installation, without /api/v1.";
    const wrongPath = await sitesync(["plan", "--websites-url", `${sandbox.url}/api`], { env, cwd: dir });
    expect(wrongPath.stderr).toContain("/api/api/v1/websites");
    expect(wrongPath.stderr).toContain(hint);
    const nobody = await sitesync(["plan", "--websites-url", "http://127.0.0.1:1"], { env, cwd: dir });
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain(hint);
  });

  it("says a request timed out, as a sentence", async () => {
    sandbox = await startSandbox({ rateLimit: 0, latencyMs: 2000, websites: [{ domain: "shop.example.com" }] });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const dir = workdir({ "sitesync.yaml": `${HEADER}websites:\n  - domain: shop.example.com\n` });
    const result = await sitesync(["plan", "--timeout", "50ms", "--websites-url", sandbox.url], { env, cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/: timed out: no answer within 50 ms \(raise --timeout if the server is this slow\)/);
    expect(result.stderr).not.toMatch(/timeout no answer/);
  });
});
