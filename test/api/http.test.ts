import { delay, HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.ts";
import type { RequestLogEntry } from "../../src/api/types.ts";
import { ApiError } from "../../src/errors.ts";
import { fakeClock } from "../helpers/fake-clock.ts";
import { apiWebsite, BASE, KEY, rejectionOf, serialized, testClient, WEBSITES } from "./helpers.ts";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const ok = (id = 1) => HttpResponse.json({ data: apiWebsite(id), status: 200 });

/** A handler that answers with `answers[n]` on the n-th call (the last one repeats), counting calls. */
function sequence(answers: Array<() => Response | Promise<Response>>) {
  const seen = { calls: 0 };
  const resolver = () => {
    const answer = answers[Math.min(seen.calls, answers.length - 1)]!;
    seen.calls++;
    return answer();
  };
  return { seen, resolver };
}

describe("requests", () => {
  it("sends the key as a Bearer token and asks for JSON on every request", async () => {
    const headers: Headers[] = [];
    server.use(
      http.all(`${WEBSITES}*`, ({ request }) => {
        headers.push(request.headers);
        return request.method === "DELETE" ? HttpResponse.json({ id: 1, object: "website", deleted: true, status: 200 }) : ok();
      }),
    );
    const { client } = testClient();
    await client.websites.show(1);
    await client.websites.create({ domain: "a.example" });
    await client.websites.update(1, { privacy: 1 });
    await client.websites.delete(1);
    expect(headers).toHaveLength(4);
    for (const h of headers) {
      expect(h.get("authorization")).toBe(`Bearer ${KEY}`);
      expect(h.get("accept")).toBe("application/json");
    }
  });
});

describe("422 field errors", () => {
  it("withhold a field name that repeats a secret, as they withhold its messages, and keep the other fields", async () => {
    const secret = "s3cret-pw-value";
    server.use(
      http.put(`${WEBSITES}/1`, () =>
        HttpResponse.json(
          { message: { [`password ${secret}`]: ["is too weak"], privacy: ["The privacy field must be an integer."] }, status: 422 },
          { status: 422 },
        ),
      ),
    );
    const { client } = testClient({ secrets: () => [secret] });
    const error = await rejectionOf(client.websites.update(1, { privacy: 2, password: secret }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.fieldErrors).toMatchObject({ privacy: ["The privacy field must be an integer."] });
    expect(serialized(error)).not.toContain(secret);
  });
});

describe("retries", () => {
  it("waits out a 429's Retry-After and retries without counting a failure", async () => {
    const throttled = () =>
      HttpResponse.json(
        { message: "Too Many Attempts." },
        { status: 429, headers: { "Retry-After": "1", "X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0" } },
      );
    const { seen, resolver } = sequence([throttled, ok]);
    server.use(http.get(`${WEBSITES}/1`, resolver));
    const clock = fakeClock();
    const { client, log } = testClient({ retries: 0, clock });
    await expect(client.websites.show(1)).resolves.toMatchObject({ id: 1 });
    // Retry-After counts whole seconds of the server's clock: the window may end up to a second after it.
    expect(clock.slept).toEqual([2_000]);
    expect(seen.calls).toBe(2);
    expect(client.stats()).toEqual({
      sent: { GET: 2 },
      throttled: 1,
      retries: 0,
      rateLimit: 60,
      // The retry's answer showed no count: the pacing knows the limit, and nothing of a window still open.
      rate: { limit: 60, windowMs: 60_000, budget: { remaining: 60, refillsInMs: 0 } },
    });
    expect(log.map((e) => e.status)).toEqual([429, 200]);
    expect(log[0]).toMatchObject({ rateLimit: 60, rateRemaining: 0 });
  });

  it("retries 5xx answers and connection resets for GET, then succeeds", async () => {
    const { seen, resolver } = sequence([
      () => HttpResponse.json({ message: "Server Error" }, { status: 500 }),
      () => HttpResponse.error(),
      () => new HttpResponse("<html>Bad Gateway</html>", { status: 502, headers: { "Content-Type": "text/html" } }),
      ok,
    ]);
    server.use(http.get(`${WEBSITES}/1`, resolver));
    const { client, log } = testClient();
    await expect(client.websites.show(1)).resolves.toMatchObject({ id: 1 });
    expect(seen.calls).toBe(4);
    expect(client.stats().retries).toBe(3);
    expect(log.map((e) => e.attempt)).toEqual([1, 2, 3, 4]);
    expect(log[1]?.error).toMatch(/connection failed/);
  });

  it("retries PUT and DELETE the same way", async () => {
    const put = sequence([() => HttpResponse.error(), ok]);
    const del = sequence([
      () => HttpResponse.json({}, { status: 503 }),
      () => HttpResponse.json({ id: 1, object: "website", deleted: true, status: 200 }),
    ]);
    server.use(http.put(`${WEBSITES}/1`, put.resolver), http.delete(`${WEBSITES}/1`, del.resolver));
    const { client } = testClient();
    await client.websites.update(1, { email: 1 });
    await client.websites.delete(1);
    expect([put.seen.calls, del.seen.calls]).toEqual([2, 2]);
  });

  it("retries a timed-out attempt with a fresh timeout", async () => {
    const { seen, resolver } = sequence([
      async () => {
        await delay(1_000);
        return ok();
      },
      ok,
    ]);
    server.use(http.get(`${WEBSITES}/1`, resolver));
    const { client, log } = testClient({ timeoutMs: 150 });
    await expect(client.websites.show(1)).resolves.toMatchObject({ id: 1 });
    expect(seen.calls).toBe(2);
    expect(log[0]?.error).toMatch(/no answer within 150 ms/);
    expect(log[1]?.status).toBe(200);
  });

  it("gives up after `retries` and reports the last failure", async () => {
    const { seen, resolver } = sequence([() => HttpResponse.json({ message: "Server Error" }, { status: 500 })]);
    server.use(http.get(`${WEBSITES}/1`, resolver));
    const { client } = testClient({ retries: 2 });
    const error = await rejectionOf(client.websites.show(1));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(`[GET] ${WEBSITES}/1: 500 Server Error`);
    expect(seen.calls).toBe(3);
  });

  it.each([
    ["a 500", () => HttpResponse.json({ message: "Server Error" }, { status: 500 }), "http"],
    ["a reset", () => HttpResponse.error(), "network"],
    [
      "a timeout",
      async () => {
        await delay(1_000);
        return ok();
      },
      "timeout",
    ],
  ])("never repeats a POST after %s: it is marked ambiguous", async (_name, answer, kind) => {
    const { seen, resolver } = sequence([answer]);
    server.use(http.post(WEBSITES, resolver));
    const { client } = testClient({ timeoutMs: 150 });
    const error = await rejectionOf(client.websites.create({ domain: "a.example" }));
    expect(error).toMatchObject({ kind, ambiguous: true });
    expect(seen.calls).toBe(1);
  });

  it("does not retry a 404", async () => {
    const { seen, resolver } = sequence([() => HttpResponse.json({ message: "Resource not found.", status: 404 }, { status: 404 })]);
    server.use(http.delete(`${WEBSITES}/9`, resolver));
    const { client } = testClient();
    expect(await rejectionOf(client.websites.delete(9))).toMatchObject({ status: 404, serverMessage: "Resource not found.", fatal: false });
    expect(seen.calls).toBe(1);
  });
});

describe("errors", () => {
  it("reads the phpAnalytics 422 bag under `message` into fieldErrors, without retrying", async () => {
    const body = {
      message: { domain: ["The domain has already been taken."], privacy: ["The privacy field must be between 0 and 2."] },
      status: 422,
    };
    const { seen, resolver } = sequence([() => HttpResponse.json(body, { status: 422 })]);
    server.use(http.post(WEBSITES, resolver));
    const error = await rejectionOf(testClient().client.websites.create({ domain: "a.example" }));
    expect(error).toMatchObject({ kind: "http", status: 422, ambiguous: false, fieldErrors: body.message });
    expect(error.message).toBe(
      `[POST] ${WEBSITES}: 422 domain: The domain has already been taken.; privacy: The privacy field must be between 0 and 2.`,
    );
    expect(seen.calls).toBe(1);
  });

  it("reads Laravel's standard {message, errors} 422 into fieldErrors", async () => {
    const errors = { exclude_bots: ["The exclude bots field must be between 0 and 1."] };
    server.use(http.put(`${WEBSITES}/3`, () => HttpResponse.json({ message: "The given data was invalid.", errors }, { status: 422 })));
    const error = await rejectionOf(testClient().client.websites.update(3, { exclude_bots: 5 }));
    expect(error).toMatchObject({ status: 422, serverMessage: "The given data was invalid.", fieldErrors: errors });
  });

  it.each([401, 403])("treats %i as fatal and does not retry it", async (status) => {
    const { seen, resolver } = sequence([() => HttpResponse.json({ message: "Unauthenticated." }, { status })]);
    server.use(http.get(WEBSITES, resolver));
    const error = await rejectionOf(testClient().client.websites.list());
    expect(error).toMatchObject({ status, fatal: true });
    expect(seen.calls).toBe(1);
  });

  it("never follows a redirect and says the key was refused or Accept was dropped", async () => {
    let loginRequests = 0;
    server.use(
      http.get(`${WEBSITES}/1`, () => new HttpResponse(null, { status: 302, headers: { Location: `${BASE}/login` } })),
      http.get(`${BASE}/login`, () => {
        loginRequests++;
        return HttpResponse.text("<html>login</html>");
      }),
    );
    const error = await rejectionOf(testClient().client.websites.show(1));
    expect(error).toMatchObject({ kind: "redirect", status: 302, fatal: true });
    expect(error.message).toMatch(/key was refused/);
    expect(error.message).toMatch(/Accept: application\/json/);
    expect(loginRequests).toBe(0);
  });

  it.each([
    ["an HTML page", "<!DOCTYPE html><html><body>Welcome</body></html>", "text/html", /got an HTML page/],
    ["an empty body", "", "application/json", /got an empty body/],
    ["a truncated body", '{"data":{"id":1,"domain":"a.exa', "application/json", /got invalid or truncated JSON/],
  ])("turns %s on a 200 into a parse error naming METHOD url status", async (_name, body, type, reason) => {
    server.use(http.get(`${WEBSITES}/1`, () => new HttpResponse(body, { status: 200, headers: { "Content-Type": type } })));
    const error = await rejectionOf(testClient().client.websites.show(1));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: "parse", status: 200 });
    expect(error.message).toMatch(new RegExp(`^\\[GET\\] ${WEBSITES}/1: 200 expected a JSON object`));
    expect(error.message).toMatch(reason);
  });

  it("turns JSON of the wrong shape into a parse error that names the field", async () => {
    server.use(http.get(`${WEBSITES}/1`, () => HttpResponse.json({ data: apiWebsite(1, { privacy: "private" }) })));
    const error = await rejectionOf(testClient().client.websites.show(1));
    expect(error).toMatchObject({ kind: "parse" });
    expect(error.message).toMatch(/data\.privacy: expected an integer, got "private"/);
  });

  it("never shows the key in an error, its cause or a log entry", async () => {
    server.use(
      http.get(`${WEBSITES}/1`, () => new HttpResponse(null, { status: 302, headers: { Location: `${BASE}/login?api_token=${KEY}` } })),
      http.get(`${WEBSITES}/2`, () => HttpResponse.error()),
      http.get(`${WEBSITES}/3`, () => HttpResponse.json({ message: `Unknown token ${KEY}` }, { status: 401 })),
      http.post(WEBSITES, () => HttpResponse.json({ message: { domain: [`${KEY} is not allowed`] } }, { status: 422 })),
      http.get(`${WEBSITES}/4`, () => new HttpResponse(`<html>${KEY}</html>`, { status: 200 })),
      http.get(`${WEBSITES}/5`, async () => {
        await delay(1_000);
        return ok();
      }),
    );
    // One client each: a refused key (the 302, the 401) ends a client's run, and every kind must be seen here.
    const log: RequestLogEntry[] = [];
    const client = () =>
      createClient({ websitesUrl: BASE, apiKey: KEY, retries: 1, retryBaseMs: 5, timeoutMs: 100, onRequest: (e) => log.push(e) });
    const errors = await Promise.all([
      rejectionOf(client().websites.show(1)),
      rejectionOf(client().websites.show(2)),
      rejectionOf(client().websites.show(3)),
      rejectionOf(client().websites.create({ domain: "a.example" })),
      rejectionOf(client().websites.show(4)),
      rejectionOf(client().websites.show(5)),
    ]);
    expect(errors.map((e) => e.kind)).toEqual(["redirect", "network", "http", "http", "parse", "timeout"]);
    expect(errors[0]?.message).toContain("api_token=***");
    expect(log.length).toBeGreaterThanOrEqual(6);
    expect(serialized(errors)).not.toContain(KEY);
    expect(serialized(log)).not.toContain(KEY);
  });
});
