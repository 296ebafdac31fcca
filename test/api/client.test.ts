import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.ts";
import { resolveBaseUrl } from "../../src/api/resolve-base-url.ts";
import { describeUrlProblem } from "../../src/config/rules/api-urls.ts";
import { UsageError } from "../../src/errors.ts";
import { errorLines } from "../../src/render/index.ts";
import { apiWebsite, KEY, rejectionOf } from "./helpers.ts";

function thrownBy(act: () => unknown): unknown {
  try {
    act();
  } catch (error) {
    return error;
  }
  throw new Error("expected it to throw");
}

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe("base URLs", () => {
  it.each([
    ["https://a.example", "https://a.example"],
    ["https://a.example/", "https://a.example"],
    ["https://a.example/api/v1", "https://a.example"],
    ["https://a.example/api/v1/", "https://a.example"],
    ["https://a.example/analytics/api/v1", "https://a.example/analytics"],
    ["http://127.0.0.1:8080/", "http://127.0.0.1:8080"],
    ["http://localhost:3000/api/v1", "http://localhost:3000"],
    ["http://[::1]:3000", "http://[::1]:3000"],
  ])("normalizes %s to %s", (input, expected) => {
    expect(resolveBaseUrl(input, "websites")).toBe(expected);
  });

  it.each(["http://analytics.example.com", "http://10.0.0.5", "http://128.0.0.1"])(
    "refuses plain http to %s: the key would cross a network in clear text",
    (url) => {
      expect(() => createClient({ websitesUrl: url, apiKey: KEY })).toThrow(UsageError);
      const error = thrownBy(() => createClient({ websitesUrl: url, apiKey: KEY }));
      expect(error).toMatchObject({ setting: "websites", problem: { code: "invalid", problem: { code: "plain-http" } } });
      expect(errorLines(error)).toEqual([expect.stringMatching(/--websites-url: refusing plain http/)]);
    },
  );

  it.each([
    "http://127.0.0.1",
    "http://127.255.0.9:80",
    "http://localhost",
    "http://[::1]",
    "http://128.0.0.1",
    "http://127.0.0.1.nip.io",
    "http://[::2]",
    "ftp://a.example",
    "https://u:p@a.example",
    "https://a.example/?q",
  ])("%s: the config and the flags accept or refuse it alike", (url) => {
    const flagAccepts = () => resolveBaseUrl(url, "websites");
    if (describeUrlProblem(url) === undefined) expect(flagAccepts).not.toThrow();
    else expect(flagAccepts).toThrow(UsageError);
  });

  it("refuses what is not an http(s) URL", () => {
    const error = thrownBy(() => createClient({ projectsUrl: "analytics.example.com", apiKey: KEY }));
    expect(errorLines(error)).toEqual([expect.stringMatching(/--projects-url: .* is not a URL/)]);
    expect(() => createClient({ projectsUrl: "ftp://a.example", apiKey: KEY })).toThrow(UsageError);
  });

  it("requires each URL only when its API is used, which the CLI words naming the missing flag", async () => {
    server.use(http.get("https://w.example/api/v1/websites/1", () => HttpResponse.json({ data: apiWebsite(1) })));
    const websitesOnly = createClient({ websitesUrl: "https://w.example", apiKey: KEY });
    await expect(websitesOnly.websites.show(1)).resolves.toMatchObject({ id: 1 });
    const error = await rejectionOf(websitesOnly.projects.readAll());
    expect(error).toBeInstanceOf(UsageError);
    expect(errorLines(error)).toEqual([expect.stringMatching(/--projects-url/)]);
    const projectsOnly = createClient({ projectsUrl: "https://p.example", apiKey: KEY });
    expect(errorLines(await rejectionOf(projectsOnly.websites.list()))).toEqual([expect.stringMatching(/--websites-url/)]);
  });
});

describe("keys and options", () => {
  it("uses the separate projects key for the projects API only", async () => {
    const seen: Record<string, string | null> = {};
    server.use(
      http.get("https://w.example/api/v1/websites", ({ request }) => {
        seen.websites = request.headers.get("authorization");
        return HttpResponse.json({ data: [] });
      }),
      http.get("https://p.example/api/v1/projects", ({ request }) => {
        seen.projects = request.headers.get("authorization");
        return HttpResponse.json({ data: [] });
      }),
    );
    const client = createClient({
      websitesUrl: "https://w.example",
      projectsUrl: "https://p.example",
      apiKey: KEY,
      projectsApiKey: "ProjectsKey123",
    });
    await client.websites.list();
    await client.projects.list();
    expect(seen).toEqual({ websites: `Bearer ${KEY}`, projects: "Bearer ProjectsKey123" });
  });

  it("refuses a missing key, and a key that cannot be sent without quoting it", () => {
    expect(() => createClient({ websitesUrl: "https://w.example", apiKey: "" })).toThrow(/API key .* is missing/);
    const bad = `${KEY}\nX`;
    let message = "";
    try {
      createClient({ websitesUrl: "https://w.example", apiKey: bad });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/cannot be sent/);
    expect(message).not.toContain(KEY);
  });

  it("refuses a concurrency below 1", () => {
    expect(() => createClient({ websitesUrl: "https://w.example", apiKey: KEY, concurrency: 0 })).toThrow(/--concurrency/);
  });

  it("refuses a website id that MySQL would read as another one", async () => {
    const client = createClient({ websitesUrl: "https://w.example", apiKey: KEY });
    expect(await rejectionOf(client.websites.show(5.5))).toBeInstanceOf(UsageError);
  });
});
