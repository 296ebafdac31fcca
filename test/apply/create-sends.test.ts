/**
 * What a create sends (DESIGN §2, API-NOTES §2.4): every field the config sets, and privacy, email and
 * exclude_bots always, as the documented defaults 0, 0 and 1 where nothing sets them, because the real API
 * stores an omitted privacy or email as null. Nothing else the config leaves unset is sent. The real CLI
 * against the sandbox, which records each body as received.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { sitesync, workdir } from "../helpers/cli.ts";

const PASSWORD = "cr3ate-Only-pa55word";
let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ rateLimit: 0 });
});
afterEach(() => sandbox.close());

async function applyConfig(websites: string): Promise<void> {
  const dir = workdir({ "sitesync.yaml": `version: 1\n${websites}` });
  const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url, STATS_PASSWORD: PASSWORD };
  const applied = await sitesync(["apply", "--auto-approve"], { env, cwd: dir });
  expect(applied.code, applied.stderr).toBe(0);
  expect(applied.stdout + applied.stderr).not.toContain(PASSWORD);
}

/** The writes the sandbox received, as `METHOD path` and the fields sent, sorted (creates run side by side). */
const writes = () =>
  sandbox.requests
    .filter((r) => r.method !== "GET")
    .map((r) => [`${r.method} ${r.path}`, r.form])
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe("a create", () => {
  it("that sets only privacy and password sends them, the default email and exclude_bots, and nothing else", async () => {
    await applyConfig("websites:\n  - domain: locked.example.com\n    privacy: password\n    password: ${STATS_PASSWORD}\n");
    expect(writes()).toEqual([
      ["POST /api/v1/websites", { domain: "locked.example.com", privacy: "2", password: "(sensitive)", email: "0", exclude_bots: "1" }],
    ]);
    const site = sandbox.store.findWebsite("locked.example.com")!;
    // Stored as 0, not the null an omitted email would leave (API-NOTES §2.4).
    expect([site.privacy, site.email, site.exclude_bots, site.password]).toEqual([2, 0, 1, PASSWORD]);
  });

  it("takes the three from defaults or the entry, and sends the other fields only when something sets them", async () => {
    await applyConfig(
      [
        "defaults: { email: true, exclude_ips: [203.0.113.7] }",
        "websites:",
        "  - domain: bare.example.com",
        "  - domain: full.example.com",
        "    privacy: private",
        "    exclude_bots: false",
        "    exclude_params: [utm_source]",
        "    favorite: true",
        "",
      ].join("\n"),
    );
    const full = sandbox.store.findWebsite("full.example.com")!.id;
    expect(writes()).toEqual([
      ["POST /api/v1/websites", { domain: "bare.example.com", privacy: "0", email: "1", exclude_bots: "1", exclude_ips: "203.0.113.7" }],
      [
        "POST /api/v1/websites",
        {
          domain: "full.example.com",
          privacy: "1",
          email: "1",
          exclude_bots: "0",
          exclude_params: "utm_source",
          exclude_ips: "203.0.113.7",
        },
      ],
      // favorite only by PUT (DESIGN §4).
      [`PUT /api/v1/websites/${full}`, { favorite: "1" }],
    ]);
  });
});
