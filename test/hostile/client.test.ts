/**
 * The bounds of DESIGN §12 at the client: against a hostile server over real HTTP, every read, wait and body
 * stops at its bound with an ApiError of kind "bound" naming METHOD and URL, and no path escapes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.ts";
import { retryAfterOf } from "../../src/api/rate-info.ts";
import type { ClientOptions } from "../../src/api/types.ts";
import { errorLines } from "../../src/render/index.ts";
import { KEY, rejectionOf } from "../api/helpers.ts";
import { type HostileServer, type Scenario, startHostileServer } from "./server.ts";

let server: HostileServer;
beforeAll(async () => (server = await startHostileServer()));
afterAll(() => server.close());

function clientFor(scenario: Scenario, options: Partial<ClientOptions> = {}) {
  const base = `${server.url}/${scenario}`;
  return createClient({ websitesUrl: base, projectsUrl: base, apiKey: KEY, retryBaseMs: 5, timeoutMs: 10_000, ...options });
}

const requestsTo = (scenario: Scenario) => server.requests.filter((r) => r.path.startsWith(`/${scenario}/`));
const listUrl = (scenario: Scenario) => `${server.url}/${scenario}/api/v1/websites?sort_by=id&sort=asc&per_page=100`;

describe("pagination bounds", () => {
  it.each([
    [
      "absurd-total",
      /meta\.total says 1000000000000 websites, more than the 400,000 sitesync reads \(4 times the 100,000-website accounts/,
    ],
    ["lying-last-page", /page 1 says last_page 1000000000 for a total of 1 at per_page 100, which do not agree/],
    ["tiny-pages", /page 1 says last_page 100000, more than the 4,000 pages sitesync reads/],
    [
      "last-page-links-on",
      /the server contradicts itself: page 1 is the last page by its own count \(meta\.last_page 1\), yet it links to a next page/,
    ],
  ] as const)("%s: refused after page 1, without a re-read", async (scenario, bound) => {
    const error = await rejectionOf(clientFor(scenario).websites.readAll());
    expect(error).toMatchObject({ kind: "bound", method: "GET", url: listUrl(scenario) });
    expect(error.message).toMatch(bound);
    expect(requestsTo(scenario)).toHaveLength(1);
  });

  it("follows an endless links.next chain no further than 4,000 pages", async () => {
    const error = await rejectionOf(clientFor("endless-next").websites.readAll());
    expect(error).toMatchObject({ kind: "bound", method: "GET", url: listUrl("endless-next") });
    expect(error.message).toMatch(/links\.next leads past page 4,000/);
    expect(requestsTo("endless-next")).toHaveLength(4000);
  });

  it("looks a domain up in at most 5 pages of search results after an ambiguous POST", async () => {
    const error = await rejectionOf(clientFor("endless-search").websites.find("shop.example"));
    expect(error).toMatchObject({ kind: "bound", method: "GET" });
    expect(error.message).toMatch(/the search for shop\.example runs past 5 pages/);
    expect(requestsTo("endless-search")).toHaveLength(5);
  });
});

describe("body bounds", () => {
  it.each(["gzip-bomb", "endless-body", "huge-length"] as const)("%s: refused at the size cap, as a size error", async (scenario) => {
    const error = await rejectionOf(clientFor(scenario, { maxBodyBytes: 4 * 2 ** 20 }).websites.list());
    expect(error).toMatchObject({ kind: "bound", method: "GET", status: 200 });
    expect(error.message).toMatch(/answer body larger than the 4 MiB cap \(counted after decompression\)/);
    expect(error.message).not.toMatch(/connection failed/);
    expect(requestsTo(scenario)).toHaveLength(1);
  });

  it("stops a gzip bomb soon after the cap, not after gigabytes", () => {
    // The server counts the uncompressed bytes it fed into gzip; backpressure keeps it near what was read.
    expect(server.streamed()).toBeLessThan(400 * 2 ** 20);
  });
});

describe("wait bounds", () => {
  it.each([
    ["retry-after-day", "Retry-After: 86400"],
    ["retry-after-date", "Retry-After: "],
    ["reset-day", "X-RateLimit-Reset: "],
    ["unavailable-day", "Retry-After: 86400"],
  ] as const)("%s: a day-long wait ends the run at once, naming the wait", async (scenario, header) => {
    const error = await rejectionOf(clientFor(scenario).websites.readAll());
    expect(error).toMatchObject({ kind: "bound", method: "GET", url: `${listUrl(scenario)}&page=1`, fatal: true });
    expect(error).toMatchObject({ limit: { code: "wait-asked", maxWaitMs: 300_000 } });
    const [line] = errorLines(error);
    expect(line).toMatch(/the server asked to wait 2[34]h( \d+m)? \(/);
    expect(line).toContain(header);
    expect(line).toMatch(/longer than --max-wait 5m/);
    expect(requestsTo(scenario)).toHaveLength(1);
  });

  it("takes a negative Retry-After as none: waits briefly and reads on", async () => {
    expect(await clientFor("retry-after-negative").websites.readAll()).toHaveLength(1);
    expect(requestsTo("retry-after-negative")).toHaveLength(2);
  });
});

describe("Retry-After", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  const of = (value: string) => retryAfterOf(new Headers({ "Retry-After": value }), now)?.retryAt;
  it("reads seconds and HTTP dates; a past date means now", () => {
    expect(of("120")).toBe(now + 120_000);
    expect(of("Thu, 01 Jan 2026 00:10:00 GMT")).toBe(now + 600_000);
    expect(of("Wed, 21 Oct 2015 07:28:00 GMT")).toBe(now);
  });

  it.each(["-5", "1.5", "1e3", "soon", "1", "2027", "99999999999999999999"])("takes %j as no value", (value) => {
    // "1" and "2027" are what Date.parse would read as years.
    expect(of(value)).toBe(value === "1" ? now + 1000 : value === "2027" ? now + 2_027_000 : undefined);
  });
});

describe("exact paths", () => {
  it("refuses a negative id from the server, naming the request", async () => {
    const error = await rejectionOf(clientFor("negative-id").websites.readAll());
    expect(error).toMatchObject({ kind: "parse", method: "GET" });
    expect(error.message).toMatch(/data\[0\]\.id: expected a positive integer id, got -1/);
  });

  it.each(["a/b", "a?b", "a#b", "100%", "a b", "...", "x/../.."])("sends the project %j as one exact path segment", async (name) => {
    const before = server.requests.length;
    await clientFor("plain").projects.delete(name);
    const [sent] = server.requests.slice(before);
    expect(sent?.method).toBe("DELETE");
    const segment = sent!.path.slice("/plain/api/v1/projects/".length);
    expect(segment).not.toMatch(/[/?#\s]/);
    expect(decodeURIComponent(segment)).toBe(name);
  });

  it.each([".", "..", ""])("refuses to send a DELETE for the project %j, which would address another path", async (name) => {
    const before = server.requests.length;
    const error = await rejectionOf(clientFor("plain").projects.delete(name));
    expect(error).toMatchObject({ kind: "bound", method: "DELETE" });
    expect(error.message).toMatch(/not sent: the path must be exactly \/plain\/api\/v1\/projects\//);
    expect(server.requests.length).toBe(before);
  });
});
