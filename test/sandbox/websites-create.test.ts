import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { call } from "./_helpers.ts";

describe("POST /api/v1/websites (API-NOTES §2.4)", () => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await startSandbox({
      rateLimit: 0,
      websites: [{ domain: "taken.example.com" }],
      otherUsersDomains: ["someone-else.example.com"],
    });
  });
  afterEach(() => sandbox.close());

  const create = (form: Record<string, string>) => call(sandbox, "POST", "/api/v1/websites", { form });

  it("answers HTTP 201 with a body status of 200, echoing form values as strings", async () => {
    const answer = await create({
      domain: "new.example.com",
      privacy: "1",
      email: "1",
      exclude_bots: "0",
      exclude_ips: "1.2.3.4\n10.0.0.0/8",
    });
    expect(answer.status).toBe(201);
    expect(answer.body.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      domain: "new.example.com",
      privacy: "1",
      email: "1",
      exclude_bots: "0",
      exclude_ips: "1.2.3.4\n10.0.0.0/8",
      favorite: false,
      favorited_at: null,
      password: false,
    });
    expect(answer.body.data.id).toBe(2);
    // Read back, the DB gives integers.
    const read = await call(sandbox, "GET", "/api/v1/websites/2");
    expect(read.body.data).toMatchObject({ privacy: 1, email: 1, exclude_bots: 0 });
  });

  it("echoes JSON numbers as numbers", async () => {
    const answer = await call(sandbox, "POST", "/api/v1/websites", {
      json: { domain: "json.example.com", privacy: 2, password: "pw", email: 0 },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({ privacy: 2, email: 0, password: true, exclude_bots: 1 });
  });

  it("stores an omitted privacy and email as null, an omitted exclude_bots as 1 and an empty one as null", async () => {
    const omitted = await create({ domain: "omitted.example.com" });
    expect(omitted.body.data).toMatchObject({ privacy: null, email: null, exclude_bots: 1 });
    const read = await call(sandbox, "GET", `/api/v1/websites/${omitted.body.data.id}`);
    expect(read.body.data).toMatchObject({ privacy: null, email: null, exclude_bots: 1 });
    const empty = await create({ domain: "empty.example.com", exclude_bots: "" });
    expect(empty.body.data.exclude_bots).toBeNull();
  });

  it("lowercases the domain and strips the scheme and every www.", async () => {
    const answer = await create({ domain: "  HTTPS://WWW.Shop.www.Example.COM  " });
    expect(answer.body.data.domain).toBe("shop.example.com");
    const notLeading = await create({ domain: "http://blog.www.example.com" });
    expect(notLeading.body.data.domain).toBe("blog.www.example.com");
  });

  it("accepts IPv4 addresses and rejects names without a dot", async () => {
    expect((await create({ domain: "192.168.1.10" })).status).toBe(201);
    const answer = await create({ domain: "localhost" });
    expect(answer.status).toBe(422);
    expect(answer.text).toBe('{"message":{"domain":["Invalid domain name."]},"status":422}');
  });

  it.each([
    ["a.123.", 201],
    ["a.123", 422],
    [`${"a".repeat(63)}.example.com`, 201],
    [`${"a".repeat(64)}.example.com`, 422],
    ["300.1.1.1", 422],
    ["1.2.3.4.", 201],
    ["a..b.com", 201],
    ["-.com", 201],
    ["a.b_c", 422],
    ["a.com:8080", 422],
  ])("applies the API's domain regex itself to %j (answers %i)", async (domain, status) => {
    expect((await create({ domain })).status).toBe(status);
  });

  it("answers a crafted name that makes the API's regex backtrack at once, with a 422", async () => {
    const answer = await create({ domain: "a..".repeat(80) });
    expect(answer.status).toBe(422);
  });

  it("rejects a domain taken by anyone, this user or another, after normalization", async () => {
    for (const domain of ["taken.example.com", "https://www.taken.example.com", "someone-else.example.com"]) {
      const answer = await create({ domain });
      expect(answer.status).toBe(422);
      expect(answer.body.message).toEqual({ domain: ["The domain has already been taken."] });
    }
  });

  it("lists every failing rule of a field, and the fields in rule order", async () => {
    const answer = await call(sandbox, "POST", "/api/v1/websites", {
      json: {
        domain: `${"a".repeat(260)}.com`,
        email: "x",
        privacy: "abc",
        exclude_bots: 5,
        exclude_ips: ["1.2.3.4"],
        password: "p".repeat(129),
      },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      message: {
        domain: ["The domain field must not be greater than 255 characters.", "Invalid domain name."],
        privacy: ["The privacy field must be an integer.", "The privacy field must be between 0 and 2."],
        password: ["The password field must not be greater than 128 characters."],
        exclude_bots: ["The exclude bots field must be between 0 and 1."],
        exclude_ips: ["The exclude ips field must be a string."],
        email: ["The email field must be an integer."],
      },
      status: 422,
    });
  });

  it("requires a domain, and a password when privacy is 2", async () => {
    const answer = await create({ domain: "", privacy: "2" });
    expect(answer.body.message).toEqual({ domain: ["The domain field is required."], password: ["The password field is required."] });
  });

  it("answers 422 with JSON even when the client does not ask for JSON", async () => {
    const answer = await call(sandbox, "POST", "/api/v1/websites", { accept: false, form: { domain: "localhost" } });
    expect(answer.status).toBe(422);
    expect(answer.body.message.domain).toEqual(["Invalid domain name."]);
  });

  it("keeps exclude_params and the password write-only", async () => {
    const answer = await create({ domain: "secret.example.com", privacy: "2", password: " s3cret ", exclude_params: "utm_source\nfbclid" });
    expect(answer.body.data.password).toBe(true);
    expect(answer.body.data).not.toHaveProperty("exclude_params");
    expect(answer.text).not.toContain("s3cret");
    const stored = sandbox.store.findWebsite("secret.example.com")!;
    // TrimStrings spares the password (API-NOTES §1).
    expect(stored.password).toBe(" s3cret ");
    expect(stored.exclude_params).toBe("utm_source\nfbclid");
    const read = await call(sandbox, "GET", `/api/v1/websites/${stored.id}`);
    expect(read.body.data).not.toHaveProperty("exclude_params");
    expect(read.text).not.toContain("s3cret");
  });

  it("parses multipart POST bodies", async () => {
    const form = new FormData();
    form.set("domain", "multipart.example.com");
    form.set("privacy", "1");
    const response = await fetch(`${sandbox.url}/api/v1/websites`, {
      method: "POST",
      headers: { Authorization: `Bearer ${sandbox.apiKey}`, Accept: "application/json" },
      body: form,
    });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { data: { privacy: string } }).data.privacy).toBe("1");
  });
});

describe("the plan's website limit (API-NOTES §4)", () => {
  it("refuses a create with a 422 on domain once the account holds the limit", async () => {
    const sandbox = await startSandbox({ rateLimit: 0, websiteLimit: 2, websites: [{ domain: "one.example.com" }] });
    try {
      expect((await call(sandbox, "POST", "/api/v1/websites", { form: { domain: "two.example.com" } })).status).toBe(201);
      const refused = await call(sandbox, "POST", "/api/v1/websites", { form: { domain: "localhost" } });
      expect(refused.status).toBe(422);
      expect(refused.body.message).toEqual({ domain: ["Invalid domain name.", "You created too many websites."] });
      expect(sandbox.store.websites()).toHaveLength(2);
    } finally {
      await sandbox.close();
    }
  });
});
