import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiWebsite, PROJECTS, rejectionOf, testClient, WEBSITES } from "./helpers.ts";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

interface Received {
  contentType: string | null;
  raw: string;
  form: URLSearchParams;
  query: URLSearchParams;
}

/** Answers `answer` and records the request as the server received it. */
function recording(answer: (form: URLSearchParams) => Response) {
  const received: Received[] = [];
  const resolver = async ({ request }: { request: Request }) => {
    const raw = await request.text();
    const form = new URLSearchParams(raw);
    received.push({ contentType: request.headers.get("content-type"), raw, form, query: new URL(request.url).searchParams });
    return answer(form);
  };
  return { received, resolver };
}

describe("encoding", () => {
  it("sends favorite false as 0, never as the string false (which favorites a site)", async () => {
    const { received, resolver } = recording(() => HttpResponse.json({ data: apiWebsite(7), status: 200 }));
    server.use(http.put(`${WEBSITES}/7`, resolver));
    const { client } = testClient();
    await client.websites.update(7, { favorite: false });
    await client.websites.update(7, { favorite: true });
    expect(received.map((r) => r.raw)).toEqual(["favorite=0", "favorite=1"]);
    expect(received[0]?.contentType).toBe("application/x-www-form-urlencoded");
  });

  it("joins lists one entry per line, sends an empty list and a null password as empty values", async () => {
    const { received, resolver } = recording(() => HttpResponse.json({ data: apiWebsite(7), status: 200 }));
    server.use(http.put(`${WEBSITES}/7`, resolver));
    await testClient().client.websites.update(7, {
      privacy: 1,
      password: null,
      email: 0,
      exclude_bots: 1,
      exclude_params: [],
      exclude_ips: ["1.2.3.4", "10.0.0.0/8"],
    });
    const body = received[0]!;
    expect(body.raw).toBe("privacy=1&password=&email=0&exclude_bots=1&exclude_params=&exclude_ips=1.2.3.4%0A10.0.0.0%2F8");
    expect(body.form.get("exclude_ips")).toBe("1.2.3.4\n10.0.0.0/8");
  });

  it("leaves fields that are not given out of the body, so the API keeps them", async () => {
    const { received, resolver } = recording(() => HttpResponse.json({ data: apiWebsite(7), status: 200 }));
    server.use(http.put(`${WEBSITES}/7`, resolver));
    await testClient().client.websites.update(7, { email: 1 });
    expect([...received[0]!.form.keys()]).toEqual(["email"]);
  });

  it("creates with the documented form fields, exclude_params included", async () => {
    const { received, resolver } = recording((form) =>
      HttpResponse.json({ data: apiWebsite(9, { domain: form.get("domain") }), status: 200 }, { status: 201 }),
    );
    server.use(http.post(WEBSITES, resolver));
    const created = await testClient().client.websites.create({
      domain: "shop.example",
      privacy: 2,
      password: "s3cret",
      exclude_params: ["utm_source", "utm_medium"],
    });
    expect(created.domain).toBe("shop.example");
    expect(Object.fromEntries(received[0]!.form)).toEqual({
      domain: "shop.example",
      privacy: "2",
      password: "s3cret",
      exclude_params: "utm_source\nutm_medium",
    });
  });

  it("sends every documented list parameter, favorite as 1/0", async () => {
    const { received, resolver } = recording(() => HttpResponse.json({ data: [], status: 200 }));
    server.use(http.get(WEBSITES, resolver), http.get(PROJECTS, resolver));
    const { client } = testClient();
    await client.websites.list({
      search: "shop",
      search_by: "domain",
      favorite: false,
      sort_by: "domain",
      sort: "desc",
      per_page: 25,
      page: 3,
    });
    await client.projects.list({ search: "shop", search_by: "project", sort_by: "created_at", sort: "asc", per_page: 50, page: 2 });
    expect(received[0]?.query.toString()).toBe("search=shop&search_by=domain&favorite=0&sort_by=domain&sort=desc&per_page=25&page=3");
    expect(received[1]?.query.toString()).toBe("search=shop&search_by=project&sort_by=created_at&sort=asc&per_page=50&page=2");
  });
});

describe("decoding", () => {
  it("reads the string echoes of POST as numbers (API-NOTES §2.1)", async () => {
    const echo = apiWebsite(12, { privacy: "1", email: "1", exclude_bots: "0", exclude_ips: "1.2.3.4\r\n\n10.0.0.0/8\n" });
    server.use(http.post(WEBSITES, () => HttpResponse.json({ data: echo, status: 200 }, { status: 201 })));
    const created = await testClient().client.websites.create({ domain: "site12.example", privacy: 1, email: 1, exclude_bots: 0 });
    expect(created).toMatchObject({ id: 12, privacy: 1, email: 1, exclude_bots: 0, exclude_ips: ["1.2.3.4", "10.0.0.0/8"] });
  });

  it("names the item and the field of a listing that is wrong, as METHOD url status", async () => {
    const data = [apiWebsite(1), apiWebsite(2), apiWebsite(3, { email: "often" })];
    server.use(http.get(WEBSITES, () => HttpResponse.json({ data, status: 200 })));
    const error = await rejectionOf(testClient().client.websites.list({ page: 1 }));
    expect(error.message).toMatch(/\[GET\] \S+ 200 unexpected answer: data\[2\]\.email: expected an integer, got "often"/);
  });

  it("reads null privacy, email and exclude_bots as 0, and flags as booleans", async () => {
    const stored = apiWebsite(5, {
      privacy: null,
      email: null,
      exclude_bots: null,
      password: true,
      favorite: true,
      favorited_at: "2025-03-01 10:00:00",
    });
    server.use(http.get(`${WEBSITES}/5`, () => HttpResponse.json({ data: stored, status: 200 })));
    expect(await testClient().client.websites.show(5)).toEqual({
      id: 5,
      domain: "site5.example",
      privacy: 0,
      email: 0,
      password: true,
      exclude_bots: 0,
      exclude_ips: [],
      favorite: true,
      favorited_at: "2025-03-01 10:00:00",
      created_at: "2025-01-02T03:04:05.000000Z",
      updated_at: "2025-01-02T03:04:05.000000Z",
    });
  });

  it("reads a project's string result as a number and its name as the delete id", async () => {
    const project = { project: "example.com", reports: 3, result: "245", created_at: "2022-01-04T18:37:00.000000Z" };
    server.use(
      http.get(PROJECTS, () => HttpResponse.json({ data: [project], status: 200 })),
      http.delete(`${PROJECTS}/example.com`, () => HttpResponse.json({ id: "example.com", object: "report", deleted: true, status: 200 })),
    );
    const { client } = testClient();
    expect((await client.projects.list()).data).toEqual([{ ...project, result: 245 }]);
    expect(await client.projects.delete("example.com")).toEqual({ id: "example.com", deleted: true });
  });

  it("reads a website delete's id as a number", async () => {
    server.use(http.delete(`${WEBSITES}/12`, () => HttpResponse.json({ id: 12, object: "website", deleted: true, status: 200 })));
    expect(await testClient().client.websites.delete(12)).toEqual({ id: 12, deleted: true });
  });
});
