/**
 * A separate projects key (DESIGN §2: SITESYNC_PROJECTS_API_KEY when the projects service uses another key):
 * through the real CLI against the sandbox over real HTTP, each API gets its own key, and without the projects
 * key nothing of the projects is deleted.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER, sitesync, workdir } from "../helpers/cli.ts";

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

describe("a separate projects key (SITESYNC_PROJECTS_API_KEY)", () => {
  const PROJECTS_KEY = "PrOjEcTsK3y0000000000000000000000000000000000000000000000000000P";
  const config = `${HEADER}websites:\n  - domain: shop.example.com\nprojects:\n  - project: old.example.org\n    state: absent\n`;

  it("is sent to the projects API, and the websites key to the websites API", async () => {
    sandbox = await startSandbox({
      rateLimit: 0,
      projectsApiKey: PROJECTS_KEY,
      websites: [{ domain: "shop.example.com" }],
      projects: [{ project: "old.example.org" }],
    });
    const env = {
      SITESYNC_API_KEY: sandbox.apiKey,
      SITESYNC_PROJECTS_API_KEY: PROJECTS_KEY,
      SITESYNC_WEBSITES_URL: sandbox.url,
      SITESYNC_PROJECTS_URL: sandbox.url,
    };
    const dir = workdir({ "sitesync.yaml": config });
    const applied = await sitesync(["apply", "--auto-approve", "--verbose"], { env, cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    expect(sandbox.store.projects().map((p) => p.project)).toEqual([]);
    expect(applied.stdout + applied.stderr).not.toContain(PROJECTS_KEY);
  });

  it("is needed: without it the projects API refuses the websites key, and nothing is deleted", async () => {
    sandbox = await startSandbox({ rateLimit: 0, projectsApiKey: PROJECTS_KEY, projects: [{ project: "old.example.org" }] });
    const env = { SITESYNC_API_KEY: sandbox.apiKey, SITESYNC_WEBSITES_URL: sandbox.url, SITESYNC_PROJECTS_URL: sandbox.url };
    const dir = workdir({ "sitesync.yaml": config });
    const applied = await sitesync(["apply", "--auto-approve"], { env, cwd: dir });
    expect(applied.code).not.toBe(0);
    expect(applied.stderr).toContain("SITESYNC_PROJECTS_API_KEY");
    expect(sandbox.store.projects().map((p) => p.project)).toEqual(["old.example.org"]);
  });
});
