import { delay, HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ReadProgress } from "../../src/api/types.ts";
import { apiWebsite, PROJECTS, pageBody, rejectionOf, testClient, WEBSITES } from "./helpers.ts";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

interface FakeListing {
  store: Array<Record<string, unknown>>;
  /** Page numbers in the order they were requested. */
  requested: number[];
  queries: URLSearchParams[];
  /** "start N" / "end N" in order, to see what ran at once. */
  events: string[];
  maxInFlight: number;
}

/**
 * A websites listing over `count` sites. `afterServe(page, fake)` runs after each page is built and may change
 * the store, like another user editing the account mid-read.
 */
function fakeListing(
  count: number,
  options: { noMeta?: boolean; nextHost?: string; afterServe?: (page: number, fake: FakeListing) => void } = {},
) {
  const fake: FakeListing = {
    store: Array.from({ length: count }, (_, i) => apiWebsite(i + 1)),
    requested: [],
    queries: [],
    events: [],
    maxInFlight: 0,
  };
  let inFlight = 0;
  server.use(
    http.get(WEBSITES, async ({ request }) => {
      const query = new URL(request.url).searchParams;
      const page = Number(query.get("page") ?? 1);
      const perPage = Number(query.get("per_page") ?? 10);
      fake.requested.push(page);
      fake.queries.push(query);
      fake.events.push(`start ${page}`);
      fake.maxInFlight = Math.max(fake.maxInFlight, ++inFlight);
      const body = pageBody(options.nextHost ?? WEBSITES, fake.store, page, perPage, { noMeta: options.noMeta ?? false });
      options.afterServe?.(page, fake);
      await delay(20);
      inFlight--;
      fake.events.push(`end ${page}`);
      return HttpResponse.json(body);
    }),
  );
  return fake;
}

const ids = (sites: Array<{ id: number }>) => sites.map((s) => s.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("readAll", () => {
  it("reads page 1, then the other pages at once, per_page 100 sorted by id", async () => {
    const fake = fakeListing(1_234);
    const { client } = testClient({ concurrency: 4 });
    const sites = await client.websites.readAll();
    expect(ids(sites)).toEqual(range(1, 1_234));
    expect(fake.requested).toHaveLength(13);
    expect(fake.events.slice(0, 2)).toEqual(["start 1", "end 1"]);
    expect(fake.maxInFlight).toBe(4);
    for (const q of fake.queries) expect([q.get("per_page"), q.get("sort_by"), q.get("sort")]).toEqual(["100", "id", "asc"]);
  });

  it("reads an empty account in one request", async () => {
    const fake = fakeListing(0);
    expect(await testClient().client.websites.readAll()).toEqual([]);
    expect(fake.requested).toEqual([1]);
  });

  it("follows links.next one page at a time when meta is missing, on its own host only", async () => {
    const fake = fakeListing(250, { noMeta: true, nextHost: "https://elsewhere.example/api/v1/websites" });
    const sites = await testClient({ concurrency: 4 }).client.websites.readAll();
    expect(ids(sites)).toEqual(range(1, 250));
    expect(fake.requested).toEqual([1, 2, 3]);
    expect(fake.maxInFlight).toBe(1);
  });

  it("re-reads the whole listing when a site disappears mid-read, and returns the consistent read", async () => {
    let deleted = false;
    const fake = fakeListing(250, {
      afterServe: (page, f) => {
        if (page === 1 && !deleted) {
          deleted = true;
          f.store.splice(9, 1); // id 10, on page 1 already read: page 2 and 3 shift by one
        }
      },
    });
    const progress: ReadProgress[] = [];
    const sites = await testClient({ onProgress: (event) => progress.push(event) }).client.websites.readAll();
    expect(ids(sites)).toEqual(ids(fake.store as Array<{ id: number }>));
    expect(sites).toHaveLength(249);
    expect(fake.requested.filter((p) => p === 1)).toHaveLength(2);
    // Nothing silent (DESIGN §5): each page read of the total, and the re-read with its reason.
    expect(progress.filter((e) => e.kind === "page").map((e) => e.kind === "page" && `${e.read}/${e.of}`)).toEqual([
      "1/3",
      "2/3",
      "3/3",
      "1/3",
      "2/3",
      "3/3",
    ]);
    expect(progress.filter((e) => e.kind === "reread")).toEqual([
      { kind: "reread", noun: "websites", attempt: 2, of: 4, problem: "page 2 reported 249 in total, page 1 250" },
    ]);
  });

  it("fails with an integrity error after 3 re-reads of a listing that keeps changing, never with a partial list", async () => {
    let next = 1_000;
    const fake = fakeListing(150, { afterServe: (page, f) => void (page === 1 && f.store.push(apiWebsite(next++))) });
    const error = await rejectionOf(testClient().client.websites.readAll());
    expect(error).toMatchObject({ kind: "integrity", method: "GET" });
    expect(error.message).toMatch(/changed while they were read, 4 times in a row/);
    expect(error.message).toMatch(/retry/);
    expect(fake.requested.filter((p) => p === 1)).toHaveLength(4);
  });

  it.each([
    // 151 items, 150 distinct ids: meta.total still matches, so only the duplicate check can see it.
    ["a duplicate id among as many distinct ids as meta.total", range(1, 100), range(100, 150), /100 was listed twice/],
    ["a short page before the last", range(1, 99), range(100, 150), /page 1 of 2 held 99 items, expected 100/],
    ["fewer items than meta.total", range(1, 100), range(101, 149), /read 149 of the 150 reported/],
  ])("refuses a listing with %s, whatever the re-reads", async (_name, first, second, problem) => {
    let calls = 0;
    server.use(
      http.get(WEBSITES, ({ request }) => {
        calls++;
        const page = Number(new URL(request.url).searchParams.get("page"));
        const body = pageBody(
          WEBSITES,
          range(1, 150).map((id) => apiWebsite(id)),
          page,
          100,
        );
        body.data = (page === 1 ? first : second).map((id) => apiWebsite(id));
        return HttpResponse.json(body);
      }),
    );
    const error = await rejectionOf(testClient().client.websites.readAll());
    expect(error).toMatchObject({ kind: "integrity" });
    expect(error.message).toMatch(problem);
    expect(calls).toBe(8);
  });

  it("fails at once, without re-reading, when a page request fails", async () => {
    let calls = 0;
    server.use(
      http.get(WEBSITES, () => {
        calls++;
        return HttpResponse.json({ message: "Unauthenticated." }, { status: 401 });
      }),
    );
    expect(await rejectionOf(testClient().client.websites.readAll())).toMatchObject({ status: 401, fatal: true });
    expect(calls).toBe(1);
  });

  it("reads projects sorted by name and checks names for duplicates", async () => {
    const projects = Array.from({ length: 120 }, (_, i) => ({
      project: `p${String(i).padStart(3, "0")}.example`,
      reports: 1,
      result: "50",
      created_at: "2022-01-04T18:37:00.000000Z",
    }));
    const queries: URLSearchParams[] = [];
    server.use(
      http.get(PROJECTS, ({ request }) => {
        const query = new URL(request.url).searchParams;
        queries.push(query);
        return HttpResponse.json(pageBody(PROJECTS, projects, Number(query.get("page")), 100));
      }),
    );
    const read = await testClient().client.projects.readAll();
    expect(read.map((p) => p.project)).toEqual(projects.map((p) => p.project));
    expect(read[0]?.result).toBe(50);
    expect(queries.map((q) => q.toString())).toEqual([
      "sort_by=project&sort=asc&per_page=100&page=1",
      "sort_by=project&sort=asc&per_page=100&page=2",
    ]);
  });
});

describe("find", () => {
  it("searches for the domain and returns only an exact match", async () => {
    const sites = [
      apiWebsite(1, { domain: "myshop.example" }),
      apiWebsite(2, { domain: "shop.example.org" }),
      apiWebsite(3, { domain: "shop.example" }),
    ];
    const queries: string[] = [];
    server.use(
      http.get(WEBSITES, ({ request }) => {
        const query = new URL(request.url).searchParams;
        queries.push(query.toString());
        const search = query.get("search") ?? "";
        return HttpResponse.json(
          pageBody(
            WEBSITES,
            sites.filter((s) => String(s.domain).includes(search)),
            1,
            100,
          ),
        );
      }),
    );
    const { client } = testClient();
    expect(await client.websites.find("https://WWW.Shop.Example/")).toMatchObject({ id: 3 });
    expect(queries[0]).toBe("search=shop.example&sort_by=id&sort=desc&per_page=100&page=1");
    expect(await client.websites.find("hop.example")).toBeUndefined();
  });
});
