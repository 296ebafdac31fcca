/**
 * The real CLI against servers that refuse writes in exact ways: a refused delete is reported as failed with
 * its status (exit 3), never as "already gone"; a 422 that repeats the submitted password never gets it
 * printed or written; a website deleted just before its PUT is reported as gone.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ItemResult } from "../../src/apply/types.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { apiWebsite } from "../api/helpers.ts";
import { HEADER, sitesync, workdir } from "../helpers/cli.ts";
import { type FakeApi, startFakeApi } from "../helpers/fake-api.ts";

const KEY = "Zq8sEcReT4kEy0000000000000000000000000000000000000000000000000Kz";
let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe("a delete the server refuses", () => {
  it.each([409, 422])("is failed with its status %i and exit 3, for a website and a project", async (status) => {
    api = await startFakeApi({
      websites: [apiWebsite(9, { domain: "old.example.com" })],
      projects: [{ project: "old.example.org", reports: 1, result: "50", created_at: "2024-01-01T00:00:00.000000Z" }],
      answer: () => ({ status, body: { message: status === 422 ? { id: ["The website cannot be deleted."] } : "Conflict.", status } }),
    });
    const dir = workdir({
      "sitesync.yaml": `${HEADER}websites:\n  - domain: old.example.com\n    state: absent\nprojects:\n  - project: old.example.org\n    state: absent\n`,
    });
    const env = { SITESYNC_API_KEY: KEY, SITESYNC_WEBSITES_URL: api.url, SITESYNC_PROJECTS_URL: api.url };
    const result = await sitesync(["apply", "--auto-approve", "--results", "results.json"], { env, cwd: dir });

    expect(result.code, result.stdout + result.stderr).toBe(3);
    expect(
      api.requests
        .filter((r) => r.method === "DELETE")
        .map((r) => r.path)
        .sort(),
    ).toEqual(["/api/v1/projects/old.example.org", "/api/v1/websites/9"]);
    const { items } = JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as { items: ItemResult[] };
    expect(items.map((i) => [i.change.kind, i.status, i.error?.status, i.note])).toEqual([
      ["website", "failed", status, undefined],
      ["project", "failed", status, undefined],
    ]);
    expect(result.stdout).toContain("Apply finished with failures.");
    expect(result.stdout).not.toContain("already gone");
  });
});

describe("a server that repeats the submitted password", () => {
  it("never gets it printed, logged or written: stdout (text and JSON), stderr (--verbose), the results file", async () => {
    // Quotes and a backslash: JSON escapes them, so a redactor that runs on JSON text would miss this password.
    const PASSWORD = 'Echo3d-"Secret"\\Pa55word';
    api = await startFakeApi({
      websites: [],
      // A 422 whose field errors quote the values submitted, password included.
      answer: ({ form }) => ({
        status: 422,
        body: {
          message: {
            password: [`The password ${form.get("password")} is too common.`],
            domain: [`${[...form].map(([k, v]) => `${k}=${v}`).join("&")} was refused.`],
          },
          status: 422,
        },
      }),
    });
    const dir = workdir({
      "sitesync.yaml": `${HEADER}websites:\n  - domain: new.example.com\n    privacy: password\n    password: \${PASS}\n`,
    });
    const env = { SITESYNC_API_KEY: KEY, SITESYNC_WEBSITES_URL: api.url, PASS: PASSWORD };
    const text = await sitesync(["apply", "--auto-approve", "--verbose", "--results", "text.json"], { env, cwd: dir });
    const json = await sitesync(["apply", "--auto-approve", "--verbose", "--format", "json", "--results", "json.json"], { env, cwd: dir });

    // The server did get the password and did repeat it: every output says its messages were withheld (DESIGN §12).
    expect(api.requests.filter((r) => r.method === "POST").map((r) => r.form.get("password"))).toEqual([PASSWORD, PASSWORD]);
    const outputs = {
      "text stdout": text.stdout,
      "text stderr": text.stderr,
      "JSON stdout": json.stdout,
      "JSON stderr": json.stderr,
      "text.json": readFileSync(join(dir, "text.json"), "utf8"),
      "json.json": readFileSync(join(dir, "json.json"), "utf8"),
    };
    expect([text.code, json.code]).toEqual([3, 3]);
    for (const [where, output] of Object.entries(outputs)) {
      if (!where.includes("stderr")) expect(output, where).toContain("withheld: it repeats a value sent as a secret");
      expect(output, where).not.toContain("is too common");
      for (const spelling of [PASSWORD, JSON.stringify(PASSWORD).slice(1, -1), "Pa55word", KEY]) {
        expect(output.includes(spelling), `${where} shows a secret (${spelling})`).toBe(false);
      }
    }
  });
});

describe("a website deleted just before its update", () => {
  let sandbox: Sandbox | undefined;
  afterEach(() => sandbox?.close());

  it("reports a website deleted just before its PUT (the API answers 500) as gone, not as a server error", async () => {
    sandbox = await startSandbox({
      rateLimit: 0,
      websites: [{ domain: "shop.example.com", privacy: 1 }],
      beforeAnswer: ({ method }) => {
        if (method === "PUT") sandbox!.store.removeWebsite(sandbox!.store.findWebsite("shop.example.com")!.id);
        return undefined;
      },
    });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url };
    const dir = workdir({ "sitesync.yaml": `${HEADER}websites:\n  - domain: shop.example.com\n    privacy: public\n` });
    const applied = await sitesync(["apply", "--auto-approve"], { env, cwd: dir });
    expect(applied.code).toBe(3);
    expect(applied.stdout + applied.stderr).toContain("no longer exists; plan again");
    expect(sandbox.requests.filter((r) => r.method === "PUT")).toHaveLength(1);
  });
});
