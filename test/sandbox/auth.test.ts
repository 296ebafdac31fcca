import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { call } from "./_helpers.ts";

describe("sandbox authentication and routing (API-NOTES §1, §4)", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "example.com" }], projects: [{ project: "example.com" }] });
  });
  afterAll(() => sandbox.close());

  it("generates a 64-character alphanumeric key when none is given", () => {
    expect(sandbox.apiKey).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(sandbox.projectsApiKey).toBe(sandbox.apiKey);
  });

  it("accepts the key as Bearer, ?api_token=, body api_token and Basic password", async () => {
    const key = sandbox.apiKey;
    const basic = `Basic ${Buffer.from(`anyone:${key}`).toString("base64")}`;
    const answers = await Promise.all([
      call(sandbox, "GET", "/api/v1/websites"),
      call(sandbox, "GET", `/api/v1/websites?api_token=${key}`, { auth: false }),
      call(sandbox, "POST", "/api/v1/websites", { auth: false, form: { api_token: key, domain: "form-key.example.com" } }),
      call(sandbox, "GET", "/api/v1/websites", { headers: { Authorization: basic } }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 201, 200]);
    expect(answers[1]!.body.data[0].domain).toBe("example.com");
  });

  it("answers a bad or missing key with 401 JSON when the client accepts JSON", async () => {
    const prefix = `Bearer ${sandbox.apiKey.slice(0, 20)}`;
    for (const headers of [{ Authorization: "Bearer wrong" }, { Authorization: prefix }, {}] as Record<string, string>[]) {
      const answer = await call(sandbox, "GET", "/api/v1/websites", { auth: false, headers });
      expect(answer.status).toBe(401);
      expect(answer.text).toBe('{"message":"Unauthenticated."}');
    }
  });

  it("redirects to /login without Accept: application/json, as the docs' write examples would get", async () => {
    const answer = await call(sandbox, "POST", "/api/v1/websites", {
      accept: false,
      headers: { Authorization: "Bearer wrong" },
      form: { domain: "a.example.com" },
    });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(`${sandbox.url}/login`);
    expect(sandbox.store.findWebsite("a.example.com")).toBeUndefined();
  });

  it("treats the key '0' as no key, like PHP's empty()", async () => {
    const answer = await call(sandbox, "GET", "/api/v1/websites?api_token=0", { auth: false });
    expect(answer.status).toBe(401);
  });

  it("answers an unknown API path with the app's 404 body, but only after auth", async () => {
    const authed = await call(sandbox, "GET", "/api/v1/nothing/here");
    expect(authed.status).toBe(404);
    expect(authed.text).toBe('{"message":"Resource not found.","status":404}');
    expect((await call(sandbox, "GET", "/api/v1/nothing/here", { auth: false })).status).toBe(401);
  });

  it("answers a wrong method with the framework's 405 message", async () => {
    const answer = await call(sandbox, "POST", "/api/v1/websites/5");
    expect(answer.status).toBe(405);
    expect(answer.body).toEqual({
      message: "The POST method is not supported for route api/v1/websites/5. Supported methods: GET, HEAD, PUT, PATCH, DELETE.",
    });
    const collection = await call(sandbox, "DELETE", "/api/v1/websites");
    expect(collection.body.message).toBe(
      "The DELETE method is not supported for route api/v1/websites. Supported methods: GET, HEAD, POST.",
    );
  });

  it("honours _method spoofing on POST, as Laravel does", async () => {
    const id = sandbox.store.findWebsite("example.com")!.id;
    const answer = await call(sandbox, "POST", `/api/v1/websites/${id}`, { form: { _method: "PUT", email: "1" } });
    expect(answer.status).toBe(200);
    expect(answer.body.data.email).toBe("1");
    expect(sandbox.requests.at(-1)!.method).toBe("PUT");
  });

  it("never records the key in the request log", async () => {
    await call(sandbox, "GET", `/api/v1/websites?api_token=${sandbox.apiKey}&page=1`, { auth: false });
    const last = sandbox.requests.at(-1)!;
    expect(last.query).toEqual({ page: "1" });
    expect(JSON.stringify(sandbox.requests)).not.toContain(sandbox.apiKey);
  });
});

describe("sandbox keys per API and the plan's API feature", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      rateLimit: 0,
      apiKey: "w".repeat(64),
      projectsApiKey: "p".repeat(64),
      apiFeature: false,
      projects: [{ project: "example.com" }],
    });
  });
  afterAll(() => sandbox.close());

  it("accepts each key only on its own API", async () => {
    const projectsKey = { headers: { Authorization: `Bearer ${"p".repeat(64)}` } };
    expect((await call(sandbox, "GET", "/api/v1/projects", projectsKey)).status).toBe(200);
    expect((await call(sandbox, "GET", "/api/v1/projects")).status).toBe(401);
    expect((await call(sandbox, "GET", "/api/v1/websites", projectsKey)).status).toBe(401);
  });

  it("answers every websites request with the api.guard 403 when the plan lacks the API feature", async () => {
    for (const [method, path] of [
      ["GET", "/api/v1/websites"],
      ["DELETE", "/api/v1/websites/1"],
    ] as const) {
      const answer = await call(sandbox, method, path);
      expect(answer.status).toBe(403);
      expect(answer.text).toBe(`{"message":"You don't have access to this feature.","status":403}`);
    }
  });
});
