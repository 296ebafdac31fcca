/** The client against the sandbox over real HTTP (127.0.0.1): paging, integrity, projects, pacing, faults. */
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.ts";
import type { ClientOptions } from "../../src/api/types.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.ts";
import { rejectionOf } from "./helpers.ts";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function start(options: SandboxOptions) {
  sandbox = await startSandbox(options);
  return sandbox;
}

function clientFor(sb: Sandbox, options: Partial<ClientOptions> = {}) {
  return createClient({ websitesUrl: sb.url, projectsUrl: `${sb.url}/api/v1/`, apiKey: sb.apiKey, retryBaseMs: 5, ...options });
}

const isWebsitesList = (line: string) => /^GET \/api\/v1\/websites\?/.test(line);
const idSet = (ids: number[]) => [...ids].sort((a, b) => a - b).join(",");

describe("websites over HTTP", () => {
  it("reads 1,234 websites in exactly 13 list requests, each id once", async () => {
    const sb = await start({ seed: 1234, rateLimit: 0 });
    const client = clientFor(sb);
    const sites = await client.websites.readAll();
    expect(sites).toHaveLength(1_234);
    expect(new Set(sites.map((s) => s.id)).size).toBe(1_234);
    expect(sites.map((s) => s.id)).toEqual(sb.store.websites().map((w) => w.id));
    expect(sb.stats().listRequests).toBe(13);
    expect(client.stats().sent).toEqual({ GET: 13 });
  });

  it.each([
    // Two changes inside the first read: it fails its checks, the re-read sees a quiet account.
    { when: "during the first read only", mutateAfter: (n: number) => n === 2 || n === 5, expected: ["snapshot"] },
    { when: "during the first two reads", mutateAfter: (n: number) => n >= 2 && n <= 20, expected: ["snapshot", "integrity"] },
    { when: "during every read", mutateAfter: () => true, expected: ["integrity"] },
  ])(
    "returns a consistent snapshot or fails on integrity when sites change $when, never a partial list",
    async ({ mutateAfter, expected }) => {
      let listRequests = 0;
      let changes = 0;
      const states: string[] = [];
      const sb: Sandbox = await start({
        seed: 250,
        rateLimit: 0,
        // Runs after a page was built and before it is sent: the next page sees the change.
        log: (line) => {
          if (!isWebsitesList(line) || !mutateAfter(++listRequests)) return;
          const store = sb.store;
          if (changes++ % 2 === 0) store.removeWebsite(store.websites()[changes]!.id);
          else store.addWebsite({ domain: `new-${changes}.example.com` });
          states.push(idSet(store.websites().map((w) => w.id)));
        },
      });
      states.push(idSet(sb.store.websites().map((w) => w.id)));
      let outcome: string;
      try {
        const sites = await clientFor(sb).websites.readAll();
        outcome = states.includes(idSet(sites.map((s) => s.id))) ? "snapshot" : "partial or mixed";
      } catch (error) {
        outcome = (error as { kind?: string }).kind === "integrity" ? "integrity" : String(error);
      }
      expect(changes).toBeGreaterThanOrEqual(2);
      expect(expected).toContain(outcome);
    },
  );

  it("paces itself under the sandbox's throttle: no 429", async () => {
    const sb = await start({ seed: 20, rateLimit: 5, rateWindowMs: 1_000 });
    const client = clientFor(sb, { rateWindowMs: 1_000 });
    const ids = sb.store
      .websites()
      .slice(0, 12)
      .map((w) => w.id);
    await Promise.all(ids.map((id) => client.websites.show(id)));
    expect(sb.stats().throttled).toBe(0);
    expect(client.stats()).toMatchObject({ throttled: 0, rateLimit: 5 });
  });

  it("marks a POST whose answer was lost as ambiguous, and find() then sees the committed site", async () => {
    const sb = await start({ seed: 3, rateLimit: 0, faults: { dropAfterCommitRate: 1, methods: ["POST"] } });
    const client = clientFor(sb);
    const error = await rejectionOf(client.websites.create({ domain: "lost-answer.example.com" }));
    expect(error).toMatchObject({ kind: "network", ambiguous: true });
    expect(sb.stats().byMethod.POST).toBe(1);
    expect(await client.websites.find("lost-answer.example.com")).toMatchObject({ domain: "lost-answer.example.com" });
  });

  it("round-trips a create and an update in canonical types", async () => {
    const sb = await start({ seed: 0, rateLimit: 0 });
    const client = clientFor(sb);
    const created = await client.websites.create({
      domain: "shop.example.com",
      privacy: 1,
      email: 1,
      exclude_ips: ["1.2.3.4", "10.0.0.0/8"],
    });
    expect(created).toMatchObject({ privacy: 1, email: 1, exclude_ips: ["1.2.3.4", "10.0.0.0/8"], favorite: false });
    const updated = await client.websites.update(created.id, { favorite: false, exclude_ips: [] });
    expect(updated).toMatchObject({ favorite: false, exclude_ips: [] });
    expect(await client.websites.show(created.id)).toMatchObject({ favorite: false, exclude_ips: [], privacy: 1 });
  });
});

describe("projects over HTTP", () => {
  it("lists every project by name and deletes by URL-encoded name; a second delete is a 404", async () => {
    const sb = await start({ seedProjects: 130, projects: [{ project: "odd name#1.example" }], rateLimit: 0 });
    const client = clientFor(sb);
    const projects = await client.projects.readAll();
    expect(projects).toHaveLength(131);
    expect(projects.map((p) => p.project)).toEqual(sb.store.projects("project").map((p) => p.project));
    expect(typeof projects[0]?.result).toBe("number");

    expect(await client.projects.delete("odd name#1.example")).toEqual({ id: "odd name#1.example", deleted: true });
    expect(sb.store.getProject("odd name#1.example")).toBeUndefined();
    expect(await rejectionOf(client.projects.delete("odd name#1.example"))).toMatchObject({ status: 404, fatal: false });
    expect(sb.store.projects()).toHaveLength(130);
  });
});
