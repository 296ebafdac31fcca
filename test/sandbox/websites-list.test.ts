import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { call } from "./_helpers.ts";

const domains = (body: { data: Array<{ domain: string }> }) => body.data.map((w) => w.domain);

describe("GET /api/v1/websites (API-NOTES §2.2, §3)", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      rateLimit: 0,
      seed: 60,
      websites: [{ domain: "zeta.example.org", favorite: true }, { domain: "alpha.example.org" }, { domain: "café.example.org" }],
      otherUsersDomains: ["not-mine.example.org"],
    });
  });
  afterAll(() => sandbox.close());

  it("lists by id descending, 10 per page, with the full pagination shape", async () => {
    const { body, text } = await call(sandbox, "GET", "/api/v1/websites");
    expect(Object.keys(body)).toEqual(["data", "links", "meta", "status"]);
    expect(body.data).toHaveLength(10);
    expect(body.data[0].domain).toBe("café.example.org");
    expect(body.data.map((w: { id: number }) => w.id)).toEqual([63, 62, 61, 60, 59, 58, 57, 56, 55, 54]);
    const base = `${sandbox.url}/api/v1/websites?search_by=domain&sort_by=id&sort=desc&per_page=10`;
    expect(body.links).toEqual({ first: `${base}&page=1`, last: `${base}&page=7`, prev: null, next: `${base}&page=2` });
    expect(body.meta).toMatchObject({
      current_page: 1,
      from: 1,
      last_page: 7,
      path: `${sandbox.url}/api/v1/websites`,
      per_page: 10,
      to: 10,
      total: 63,
    });
    expect(Object.keys(body.meta)).toEqual(["current_page", "from", "last_page", "links", "path", "per_page", "to", "total"]);
    expect(body.status).toBe(200);
    // json_encode escapes slashes and non-ASCII characters (API-NOTES §1).
    expect(text).toContain(`"first":"http:\\/\\/127.0.0.1:`);
    expect(text).toContain('"domain":"caf\\u00e9.example.org"');
  });

  it("returns every website field in the documented order, without exclude_params", async () => {
    const { body } = await call(sandbox, "GET", "/api/v1/websites?per_page=100");
    expect(Object.keys(body.data[0])).toEqual([
      "id",
      "domain",
      "privacy",
      "email",
      "password",
      "exclude_bots",
      "exclude_ips",
      "favorite",
      "favorited_at",
      "created_at",
      "updated_at",
    ]);
    for (const website of body.data) {
      expect(website.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000Z$/);
      expect(typeof website.password).toBe("boolean");
    }
  });

  it("accepts only 10, 25, 50 and 100 as per_page, and falls back to the default otherwise", async () => {
    for (const [asked, got] of [
      ["25", 25],
      ["100", 100],
      ["30", 10],
      ["abc", 10],
      ["1000", 10],
    ] as const) {
      const { body } = await call(sandbox, "GET", `/api/v1/websites?per_page=${asked}`);
      expect(body.meta.per_page).toBe(got);
      expect(body.data).toHaveLength(Math.min(got, 63));
    }
  });

  it("uses the configured default per_page for values outside the whitelist", async () => {
    const other = await startSandbox({ rateLimit: 0, seed: 120, defaultPerPage: 100 });
    try {
      const { body } = await call(other, "GET", "/api/v1/websites?per_page=500");
      expect(body.meta.per_page).toBe(100);
      expect(body.links.next).toContain("per_page=100&page=2");
    } finally {
      await other.close();
    }
  });

  it("sorts by domain or id, ascending or descending, and ignores unknown values", async () => {
    const byDomain = await call(sandbox, "GET", "/api/v1/websites?sort_by=domain&sort=asc&per_page=100");
    expect(domains(byDomain.body).slice(0, 3)).toEqual(["alpha.example.org", "café.example.org", "site-00001.example.com"]);
    const bogus = await call(sandbox, "GET", "/api/v1/websites?sort_by=created_at&sort=up");
    expect(bogus.body.data[0].id).toBe(63);
    expect(bogus.body.links.first).toContain("sort_by=id&sort=desc");
    const idAsc = await call(sandbox, "GET", "/api/v1/websites?sort_by=id&sort=asc");
    expect(idAsc.body.data[0].id).toBe(1);
  });

  it("searches domains with LIKE, and treats an empty or '0' search as no filter", async () => {
    const found = await call(sandbox, "GET", "/api/v1/websites?search=ALPHA&search_by=anything");
    expect(domains(found.body)).toEqual(["alpha.example.org"]);
    expect(found.body.links.first).toContain("?search=ALPHA&search_by=domain&");
    const wildcard = await call(sandbox, "GET", "/api/v1/websites?search=site-0000_.&per_page=100");
    expect(wildcard.body.meta.total).toBe(9);
    for (const search of ["", "0", "%20"]) {
      expect((await call(sandbox, "GET", `/api/v1/websites?search=${search}`)).body.meta.total).toBe(63);
    }
  });

  it("searches the stored domain as given: no www. stripped, and a backslash escapes a LIKE wildcard", async () => {
    // The search value goes into LIKE unchanged (API-NOTES §2.2): only a create strips www. (§2.4).
    expect((await call(sandbox, "GET", "/api/v1/websites?search=www.alpha.example.org")).body.meta.total).toBe(0);
    expect(
      (await call(sandbox, "GET", "/api/v1/websites?search=a%25ha.example")).body.data.map((w: { domain: string }) => w.domain),
    ).toEqual(["alpha.example.org"]);
    expect((await call(sandbox, "GET", `/api/v1/websites?search=${encodeURIComponent("site-0000\\_.")}`)).body.meta.total).toBe(0);
  });

  it("filters favorites with numeric favorite values only", async () => {
    const favorites = await call(sandbox, "GET", "/api/v1/websites?favorite=1&per_page=100");
    const store = sandbox.store.websites();
    const expected = store.filter((w) => w.favorited_at !== null).length;
    expect(favorites.body.meta.total).toBe(expected);
    expect(favorites.body.data.every((w: { favorite: boolean }) => w.favorite)).toBe(true);
    expect(favorites.body.links.first).toContain("search_by=domain&favorite=1&sort_by=id");
    const others = await call(sandbox, "GET", "/api/v1/websites?favorite=0&per_page=100");
    expect(others.body.meta.total).toBe(63 - expected);
    // `true` is not numeric, so the filter is ignored.
    expect((await call(sandbox, "GET", "/api/v1/websites?favorite=true")).body.meta.total).toBe(63);
  });

  it("shows a favorite's favorited_at as the raw DB string", async () => {
    const { body } = await call(sandbox, "GET", `/api/v1/websites/${sandbox.store.findWebsite("zeta.example.org")!.id}`);
    expect(body.data.favorite).toBe(true);
    expect(body.data.favorited_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it("never lists another user's websites", async () => {
    const { body } = await call(sandbox, "GET", "/api/v1/websites?search=not-mine");
    expect(body.meta.total).toBe(0);
  });

  it("answers a page past the end with empty data and an invalid page with page 1", async () => {
    const past = await call(sandbox, "GET", "/api/v1/websites?page=9");
    expect(past.body.data).toEqual([]);
    expect(past.body.meta).toMatchObject({ current_page: 9, from: null, to: null, last_page: 7 });
    expect(past.body.links.prev).toContain("page=8");
    expect(past.body.links.next).toBeNull();
    for (const page of ["0", "-2", "abc", "02"]) {
      expect((await call(sandbox, "GET", `/api/v1/websites?page=${page}`)).body.meta.current_page).toBe(1);
    }
  });

  it("describes an empty result exactly", async () => {
    const { body } = await call(sandbox, "GET", "/api/v1/websites?search=nothing-matches");
    const first = `${sandbox.url}/api/v1/websites?search=nothing-matches&search_by=domain&sort_by=id&sort=desc&per_page=10&page=1`;
    expect(body).toEqual({
      data: [],
      links: { first, last: first, prev: null, next: null },
      meta: {
        current_page: 1,
        from: null,
        last_page: 1,
        links: [
          { url: null, label: "&laquo; Previous", active: false },
          { url: first, label: "1", active: true },
          { url: null, label: "Next &raquo;", active: false },
        ],
        path: `${sandbox.url}/api/v1/websites`,
        per_page: 10,
        to: null,
        total: 0,
      },
      status: 200,
    });
  });

  it("lists every page in meta.links below 14 pages", async () => {
    const { body } = await call(sandbox, "GET", "/api/v1/websites?page=2");
    const labels = body.meta.links.map((l: { label: string }) => l.label);
    expect(labels).toEqual(["&laquo; Previous", "1", "2", "3", "4", "5", "6", "7", "Next &raquo;"]);
    expect(body.meta.links.find((l: { active: boolean }) => l.active).label).toBe("2");
  });

  it("windows meta.links like Laravel's UrlWindow from 14 pages on", async () => {
    const big = await startSandbox({ rateLimit: 0, seed: 300 });
    try {
      const labels = async (page: number) =>
        (await call(big, "GET", `/api/v1/websites?page=${page}`)).body.meta.links
          .slice(1, -1)
          .map((l: { label: string; url: string | null }) => (l.url === null ? "…" : l.label))
          .join(" ");
      expect(await labels(1)).toBe("1 2 3 4 5 6 7 8 9 10 … 29 30");
      expect(await labels(15)).toBe("1 2 … 12 13 14 15 16 17 18 … 29 30");
      expect(await labels(30)).toBe("1 2 … 21 22 23 24 25 26 27 28 29 30");
    } finally {
      await big.close();
    }
  });
});

describe("a large account", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: 0, seed: 10_000 });
  });
  afterAll(() => sandbox.close());

  it("serves 10,000 websites over 100 full pages with consistent meta", async () => {
    const first = await call(sandbox, "GET", "/api/v1/websites?per_page=100&sort_by=id&sort=asc&page=1");
    expect(first.body.meta).toMatchObject({ total: 10_000, last_page: 100 });
    const pages = await Promise.all(
      Array.from({ length: 99 }, (_, i) => call(sandbox, "GET", `/api/v1/websites?per_page=100&sort_by=id&sort=asc&page=${i + 2}`)),
    );
    const ids = [first, ...pages].flatMap((page) => page.body.data.map((w: { id: number }) => w.id));
    expect(ids).toHaveLength(10_000);
    expect(new Set(ids).size).toBe(10_000);
    expect(ids[0]).toBe(1);
    expect(ids.at(-1)).toBe(10_000);
    expect(sandbox.stats().listRequests).toBe(100);
  });
});
