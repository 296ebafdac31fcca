/**
 * Scoped reads against the sandbox over real HTTP (DESIGN §3, §8): each touched name found through
 * `search`, filtered to the exact name, paged through when it is a substring of many others, and never at a
 * higher cost than the full read it replaces.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.ts";
import { lookUpProjects, lookUpWebsites, searchTerm } from "../../src/api/lookup.ts";
import type { Desired } from "../../src/model/state.ts";
import { plan } from "../../src/plan/plan.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.ts";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function start(options: SandboxOptions) {
  sandbox = await startSandbox({ rateLimit: 0, ...options });
  return { sb: sandbox, client: createClient({ websitesUrl: sandbox.url, projectsUrl: sandbox.url, apiKey: sandbox.apiKey }) };
}

/** Every list request the sandbox saw, as `search|per_page|page` (an empty search: the size probe). */
function lists(sb: Sandbox, path = "/api/v1/websites"): string[] {
  return sb.requests
    .filter((r) => r.method === "GET" && r.path === path)
    .map((r) => `${r.query.search ?? ""}|${r.query.per_page}|${r.query.page ?? 1}`);
}

const SUBSTRINGS = ["a.com", "data.com", "a.com.au", "ba.com", "a.community.org", "mega.com"].map((domain) => ({ domain }));

describe("lookUpWebsites", () => {
  it("finds exactly the named domains among the names that contain them: one probe and one search each", async () => {
    const { sb, client } = await start({ seed: 1_000, websites: SUBSTRINGS });
    const found = await lookUpWebsites(client, ["a.com", "site-00007.example.com", "missing.example.com"]);
    expect(found.read).toBe("scoped");
    if (found.read !== "scoped") return;
    expect(found.items.map((w) => w.domain).sort()).toEqual(["a.com", "site-00007.example.com"]);
    expect(found).toMatchObject({ requests: 4, fullCost: 11 });
    expect(lists(sb).sort()).toEqual(["a.com|100|1", "missing.example.com|100|1", "site-00007.example.com|100|1", "|10|1"]);
    expect(client.stats().sent).toEqual({ GET: 4 });
  });

  it("pages through the matches of a domain that is a substring of hundreds, in its request count", async () => {
    const many = Array.from({ length: 250 }, (_, i) => ({ domain: `shop${i}.a.com` }));
    const { sb, client } = await start({ seed: 2_000, websites: [...SUBSTRINGS, ...many] });
    const found = await lookUpWebsites(client, ["A.com"]);
    expect(found).toMatchObject({ read: "scoped", requests: 4, fullCost: 23 });
    expect(found.read === "scoped" && found.items.map((w) => w.domain)).toEqual(["a.com"]);
    expect(lists(sb)).toEqual(["|10|1", "a.com|100|1", "a.com|100|2", "a.com|100|3"]);
  });

  it("reads in full instead when the lookups would cost as much as a full read, deciding before the pages they would need", async () => {
    // 260 websites: a full read is 3 pages, so the probe leaves room for 2 searches.
    const two = await start({ seed: 254, websites: SUBSTRINGS });
    expect(await lookUpWebsites(two.client, ["a.com", "data.com"])).toMatchObject({ read: "scoped", requests: 3, fullCost: 3 });
    expect(await lookUpWebsites(two.client, ["a.com", "data.com", "mega.com"])).toEqual({
      read: "full-instead",
      reason: "over-budget",
      requests: 1,
      fullCost: 3,
    });
    await sandbox?.close();

    // 556 websites (a full read: 6 pages): "a.com" alone matches 3 pages, so with 3 more names it would cost 1 + 6.
    const many = Array.from({ length: 250 }, (_, i) => ({ domain: `shop${i}.a.com` }));
    const { sb, client } = await start({ seed: 300, websites: [...SUBSTRINGS, ...many] });
    const names = ["a.com", "site-00001.example.com", "site-00002.example.com", "site-00003.example.com"];
    expect(await lookUpWebsites(client, names)).toEqual({ read: "full-instead", reason: "over-budget", requests: 5, fullCost: 6 });
    expect(lists(sb).filter((line) => line.endsWith("|2") || line.endsWith("|3"))).toEqual([]);
    expect(await lookUpWebsites(client, names.slice(0, 3))).toMatchObject({ read: "scoped", requests: 6 });
  });

  it("returns every live copy of a domain, so the plan picks the managed one exactly as after a full read", async () => {
    const { client } = await start({ seed: 300, websites: [{ domain: "dup.example.com." }, { domain: "dup.example.com", email: 1 }] });
    const found = await lookUpWebsites(client, ["dup.example.com"]);
    expect(found.read === "scoped" && found.items.map((w) => w.domain)).toEqual(["dup.example.com.", "dup.example.com"]);
    const desired: Desired = {
      websites: [{ domain: "dup.example.com", state: "present", email: 0 }],
      policy: { prune: false, maxDeletes: 5, protect: [], ignore: [] },
    };
    const options = { configFile: "sitesync.yaml", configDigest: "0".repeat(64) };
    const scoped = plan(desired, { websites: found.read === "scoped" ? found.items : [] }, options);
    const full = plan(desired, { websites: await client.websites.readAll() }, options);
    expect(scoped.changes).toEqual(full.changes);
    expect(scoped.changes.map((c) => c.action === "update" && c.id)).toEqual([302]);
    expect(scoped.warnings.map((w) => w.code)).toEqual(["duplicate-live"]);
  });

  it("looks nothing up for no names, and gives up on a name made of LIKE wildcards before any request", async () => {
    const { client } = await start({ seed: 10 });
    expect(await lookUpWebsites(client, [])).toEqual({ read: "scoped", items: [], requests: 0 });
    expect(await lookUpWebsites(client, ["%_%"])).toEqual({ read: "full-instead", reason: "unsearchable", requests: 0 });
    expect(client.stats().sent).toEqual({});
  });
});

describe("lookUpProjects", () => {
  it("finds projects by name without case among the names that contain them", async () => {
    const projects = ["a.com", "data.com", "a.com.au"].map((project) => ({ project }));
    const { sb, client } = await start({ seedProjects: 400, projects });
    const found = await lookUpProjects(client, ["A.COM", "project-00003.example.org"]);
    expect(found).toMatchObject({ read: "scoped", requests: 3, fullCost: 5 });
    expect(found.read === "scoped" && found.items.map((p) => p.project).sort()).toEqual(["a.com", "project-00003.example.org"]);
    expect(lists(sb, "/api/v1/projects").sort()).toEqual(["a.com|100|1", "project-00003.example.org|100|1", "|10|1"]);
  });
});

describe("searchTerm", () => {
  it("searches the longest part of a name that holds no LIKE wildcard or escape", () => {
    expect(searchTerm("a.com")).toBe("a.com");
    expect(searchTerm("my_shop.example.com")).toBe("shop.example.com");
    expect(searchTerm("a\\b%c.example.org")).toBe("c.example.org");
    expect(searchTerm("%_")).toBe("");
  });
});
