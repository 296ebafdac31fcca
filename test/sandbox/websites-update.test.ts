import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { call } from "./_helpers.ts";

const OLD = "2024-05-01T10:00:00.000000Z";

describe("PUT|PATCH /api/v1/websites/{id} (API-NOTES §2.5)", () => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await startSandbox({
      rateLimit: 0,
      websites: [
        { domain: "site.example.com", privacy: 0, email: 0, exclude_bots: 1, exclude_ips: "1.2.3.4", created_at: OLD },
        { domain: "locked.example.com", privacy: 2, password: "old", created_at: OLD },
      ],
    });
  });
  afterEach(() => sandbox.close());

  const put = (id: number | string, form: Record<string, string>) => call(sandbox, "PUT", `/api/v1/websites/${id}`, { form });

  it("changes only the fields sent, echoes them as sent and moves updated_at", async () => {
    const answer = await put(1, { email: "1", exclude_ips: "5.6.7.8\n9.9.9.9", domain: "renamed.example.com" });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      data: { id: 1, domain: "site.example.com", email: "1", privacy: 0, exclude_ips: "5.6.7.8\n9.9.9.9" },
      status: 200,
    });
    expect(answer.body.data.updated_at).not.toBe(OLD);
    expect(answer.body.data.created_at).toBe(OLD);
    const read = await call(sandbox, "GET", "/api/v1/websites/1");
    expect(read.body.data).toMatchObject({ email: 1, domain: "site.example.com" });
  });

  it("accepts PATCH and JSON bodies alike", async () => {
    const answer = await call(sandbox, "PATCH", "/api/v1/websites/1", { json: { privacy: 1 } });
    expect(answer.body.data.privacy).toBe(1);
    expect(sandbox.store.getWebsite(1)!.privacy).toBe(1);
  });

  it("keeps updated_at when nothing actually changed", async () => {
    const answer = await put(1, { privacy: "0", email: "0", exclude_ips: "1.2.3.4", favorite: "0" });
    expect(answer.body.data.updated_at).toBe(OLD);
  });

  it("reads favorite with PHP truthiness: the string 'false' favorites, '0' and '' do not", async () => {
    const favored = await put(1, { favorite: "false" });
    expect(favored.body.data.favorite).toBe(true);
    // Right after the PUT the new Carbon serializes as ISO; read back it is the raw DB string (API-NOTES §2.1).
    expect(favored.body.data.favorited_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const read = await call(sandbox, "GET", "/api/v1/websites/1");
    expect(read.body.data.favorited_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    for (const value of ["0", ""]) {
      await put(1, { favorite: "1" });
      const cleared = await put(1, { favorite: value });
      expect(cleared.body.data).toMatchObject({ favorite: false, favorited_at: null });
    }
  });

  it("answers 403 when the body carries user_id, before validating", async () => {
    const answer = await put(1, { user_id: "2", privacy: "9" });
    expect(answer.status).toBe(403);
    expect(answer.text).toBe('{"message":"This action is unauthorized."}');
  });

  it("validates before looking the website up", async () => {
    const answer = await put(999, { privacy: "", exclude_bots: "" });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toEqual({
      privacy: ["The privacy field is required."],
      exclude_bots: ["The exclude bots field must be an integer."],
    });
  });

  it("answers a PUT on a missing website with the v31 500 by default", async () => {
    const answer = await put(999, { privacy: "1" });
    expect(answer.status).toBe(500);
    expect(answer.text).toBe('{"message":"Server Error"}');
  });

  it("answers the standard 404 when putMissing is 404", async () => {
    const fixed = await startSandbox({ rateLimit: 0, putMissing: 404 });
    try {
      const answer = await call(fixed, "PUT", "/api/v1/websites/999", { form: { privacy: "1" } });
      expect(answer.status).toBe(404);
      expect(answer.text).toBe('{"message":"Resource not found.","status":404}');
    } finally {
      await fixed.close();
    }
  });

  it("needs a string password when privacy becomes 2, and clears it with password= otherwise", async () => {
    const missing = await put(1, { privacy: "2", password: "" });
    expect(missing.status).toBe(422);
    expect(missing.body.message.password).toContain("The password field must be a string.");
    // privacy 2 without a password field is accepted: the stored password is kept.
    expect((await put(2, { privacy: "2" })).body.data.password).toBe(true);
    const cleared = await put(2, { privacy: "0", password: "" });
    expect(cleared.body.data).toMatchObject({ privacy: "0", password: false });
    expect(sandbox.store.getWebsite(2)!.password).toBeNull();
  });

  it("ignores a multipart PUT body, since PHP does not parse it", async () => {
    const form = new FormData();
    form.set("email", "1");
    const response = await fetch(`${sandbox.url}/api/v1/websites/1`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${sandbox.apiKey}`, Accept: "application/json" },
      body: form,
    });
    expect(response.status).toBe(200);
    expect(sandbox.store.getWebsite(1)!.email).toBe(0);
  });

  it("finds the id through MySQL's coercion, so 1abc is website 1", async () => {
    expect((await call(sandbox, "GET", "/api/v1/websites/1abc")).body.data.id).toBe(1);
    expect((await call(sandbox, "GET", "/api/v1/websites/abc")).status).toBe(404);
  });
});

describe("DELETE /api/v1/websites/{id} (API-NOTES §2.6)", () => {
  it("hard-deletes and answers with the integer id, then 404", async () => {
    const sandbox = await startSandbox({ rateLimit: 0, websites: [{ domain: "gone.example.com" }] });
    try {
      const answer = await call(sandbox, "DELETE", "/api/v1/websites/1");
      expect(answer.status).toBe(200);
      expect(answer.text).toBe('{"id":1,"object":"website","deleted":true,"status":200}');
      expect(sandbox.store.findWebsite("gone.example.com")).toBeUndefined();
      expect((await call(sandbox, "DELETE", "/api/v1/websites/1")).body).toEqual({ message: "Resource not found.", status: 404 });
      // A hard delete frees the domain for a new create.
      expect((await call(sandbox, "POST", "/api/v1/websites", { form: { domain: "gone.example.com" } })).status).toBe(201);
    } finally {
      await sandbox.close();
    }
  });
});
