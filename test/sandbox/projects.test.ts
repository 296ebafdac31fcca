import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { call } from "./_helpers.ts";

describe("phpRank projects (API-NOTES §5)", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      rateLimit: 0,
      seedProjects: 30,
      projects: [
        { project: "example.com", reports: 3, result: 245, created_at: "2022-01-04T18:37:00Z" },
        { project: "shop.example.com", reports: 1, result: 80, created_at: "2030-01-01T00:00:00Z" },
      ],
    });
  });
  afterAll(() => sandbox.close());

  it("lists newest first with the exact object shape: no id, result as a string", async () => {
    const { body } = await call(sandbox, "GET", "/api/v1/projects");
    expect(body.meta).toMatchObject({ total: 32, per_page: 10, last_page: 4 });
    expect(body.data[0]).toEqual({ project: "shop.example.com", reports: 1, result: "80", created_at: "2030-01-01T00:00:00.000000Z" });
    expect(Object.keys(body.data[0])).toEqual(["project", "reports", "result", "created_at"]);
    expect(body.links.first).toBe(`${sandbox.url}/api/v1/projects?search_by=project&sort_by=created_at&sort=desc&per_page=10&page=1`);
  });

  it("sorts by name and searches by name", async () => {
    const byName = await call(sandbox, "GET", "/api/v1/projects?sort_by=project&sort=asc&per_page=100");
    const names = byName.body.data.map((p: { project: string }) => p.project);
    expect(names).toEqual([...names].sort());
    expect(names[0]).toBe("example.com");
    const found = await call(sandbox, "GET", "/api/v1/projects?search=shop&per_page=25");
    expect(found.body.data).toHaveLength(1);
    expect(found.body.links.first).toContain("?search=shop&search_by=project&sort_by=created_at&sort=desc&per_page=25&page=1");
  });

  it("deletes a project by its URL-encoded name, then answers 404", async () => {
    const answer = await call(sandbox, "DELETE", `/api/v1/projects/${encodeURIComponent("shop.example.com")}`);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('{"id":"shop.example.com","object":"report","deleted":true,"status":200}');
    const again = await call(sandbox, "DELETE", "/api/v1/projects/shop.example.com");
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: "Resource not found.", status: 404 });
    expect(sandbox.store.getProject("shop.example.com")).toBeUndefined();
  });

  it("has no api.guard: projects stay reachable without the websites API feature", async () => {
    const noFeature = await startSandbox({ rateLimit: 0, apiFeature: false, projects: [{ project: "a.example.com" }] });
    try {
      expect((await call(noFeature, "GET", "/api/v1/projects")).status).toBe(200);
    } finally {
      await noFeature.close();
    }
  });
});
