/**
 * `apply` against exact HTTP edge cases (msw): a refused key ends the run, partial creates keep their id, a
 * POST without an answer is looked up before anything is sent again, a refused delete is a failure.
 */
import { delay, HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { apply } from "../../src/apply/apply.ts";
import { plan } from "../../src/plan/plan.ts";
import type { Plan } from "../../src/plan/types.ts";
import { itemNote } from "../../src/render/item-note.ts";
import { apiWebsite, PROJECTS, testClient, WEBSITES } from "../api/helpers.ts";
import { liveWebsite } from "../helpers/live-website.ts";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const policy = { prune: true, maxDeletes: 100, protect: [], ignore: [] };
const options = { configFile: "sitesync.yaml", configDigest: "d" };

describe("apply", () => {
  it("stops sending once the key is refused: queued requests are skipped, not sent", async () => {
    let deletes = 0;
    server.use(
      http.delete(`${WEBSITES}/:id`, () => {
        deletes++;
        return HttpResponse.json({ message: "Unauthenticated." }, { status: 401 });
      }),
    );
    const live = [
      liveWebsite(100, "keep.example.com"),
      ...Array.from({ length: 20 }, (_, i) => liveWebsite(i + 1, `prune-${i}.example.com`)),
    ];
    const p = plan({ websites: [{ domain: "keep.example.com", state: "present" }], policy }, { websites: live }, options);
    expect(p.changes.filter((c) => c.action === "delete")).toHaveLength(20);

    const { client } = testClient({ concurrency: 2 });
    const result = await apply(p, client, { passwordOf: () => undefined });
    const deletesResults = result.items.filter((i) => i.change.action === "delete");
    expect(deletes).toBeLessThanOrEqual(2);
    expect(deletesResults.filter((i) => i.status === "failed").length).toBe(deletes);
    expect(deletesResults.filter((i) => i.status === "skipped").length).toBe(20 - deletes);
    expect(result.aborted).toContain("401");
  });

  it("reports a create whose favorite PUT failed as failed, with the id of the site it did create", async () => {
    server.use(
      http.post(WEBSITES, () => HttpResponse.json({ data: apiWebsite(77, { domain: "fav.example.com" }), status: 200 }, { status: 201 })),
      http.put(`${WEBSITES}/:id`, () => HttpResponse.json({ message: { favorite: ["nope"] }, status: 422 }, { status: 422 })),
    );
    const p = plan(
      { websites: [{ domain: "fav.example.com", state: "present", favorite: true }], policy: { ...policy, prune: false } },
      { websites: [] },
      options,
    );
    const { client } = testClient();
    const [item] = (await apply(p, client, { passwordOf: () => undefined })).items;
    expect(item).toMatchObject({ status: "failed", id: 77 });
    expect(item).toMatchObject({ reason: "incomplete", detail: { missing: "favorite" } });
    expect(itemNote(item!)).toBe("created (id 77) but not made a favorite");
  });

  it("adopts the site when a POST whose connection was reset turns out to have created it (422 already taken on the retry)", async () => {
    let posts = 0;
    let created = false;
    server.use(
      http.post(WEBSITES, async () => {
        posts++;
        if (posts === 1) {
          created = true;
          return HttpResponse.error();
        }
        return HttpResponse.json({ message: { domain: ["The domain has already been taken."] }, status: 422 }, { status: 422 });
      }),
      http.put(`${WEBSITES}/5`, () => HttpResponse.json({ data: apiWebsite(5, { domain: "slow.example.com" }), status: 200 })),
      // The first look-up runs before the server has finished: it finds nothing yet.
      http.get(WEBSITES, ({ request }) => {
        const seen = posts > 1 && created;
        const data = seen ? [apiWebsite(5, { domain: "slow.example.com" })] : [];
        return HttpResponse.json({
          data,
          links: { next: null },
          meta: { current_page: 1, last_page: 1, per_page: 100, total: data.length, from: data.length ? 1 : null, to: data.length || null },
          status: 200,
          url: request.url,
        });
      }),
    );
    const p = plan(
      { websites: [{ domain: "slow.example.com", state: "present" }], policy: { ...policy, prune: false } },
      { websites: [] },
      options,
    );
    const { client } = testClient();
    const [item] = (await apply(p, client, { passwordOf: () => undefined })).items;
    expect(item).toMatchObject({ status: "applied", id: 5 });
    expect(posts).toBe(2);
  });

  it("takes a 2xx POST answered with a body that is not JSON as ambiguous: looks the domain up and adopts it", async () => {
    let posts = 0;
    server.use(
      http.post(WEBSITES, () => {
        posts++;
        return new HttpResponse("<html>Created</html>", { status: 201, headers: { "Content-Type": "text/html" } });
      }),
      http.put(`${WEBSITES}/8`, () => HttpResponse.json({ data: apiWebsite(8, { domain: "html.example.com" }), status: 200 })),
      http.get(WEBSITES, ({ request }) => {
        const data = posts > 0 ? [apiWebsite(8, { domain: "html.example.com" })] : [];
        return HttpResponse.json({
          data,
          links: { next: null },
          meta: { current_page: 1, last_page: 1, per_page: 100, total: data.length, from: data.length ? 1 : null, to: data.length || null },
          status: 200,
          url: request.url,
        });
      }),
    );
    const p = plan(
      { websites: [{ domain: "html.example.com", state: "present" }], policy: { ...policy, prune: false } },
      { websites: [] },
      options,
    );
    const { client } = testClient();
    const [item] = (await apply(p, client, { passwordOf: () => undefined })).items;
    expect(item).toMatchObject({ status: "applied", id: 8, reason: "adopted" });
    expect(posts).toBe(1);
  });

  it("adopts the site when a POST that timed out turns out to have created it, without POSTing again", async () => {
    let posts = 0;
    server.use(
      // The server commits the site, then never answers: only the client's timeout ends the wait.
      http.post(WEBSITES, async () => {
        posts++;
        await delay("infinite");
        return HttpResponse.json({}, { status: 500 });
      }),
      http.get(WEBSITES, ({ request }) => {
        const data = posts > 0 ? [apiWebsite(6, { domain: "hung.example.com" })] : [];
        return HttpResponse.json({
          data,
          links: { next: null },
          meta: { current_page: 1, last_page: 1, per_page: 100, total: data.length, from: data.length ? 1 : null, to: data.length || null },
          status: 200,
          url: request.url,
        });
      }),
      http.put(`${WEBSITES}/6`, () => HttpResponse.json({ data: apiWebsite(6, { domain: "hung.example.com" }), status: 200 })),
    );
    const p = plan(
      { websites: [{ domain: "hung.example.com", state: "present" }], policy: { ...policy, prune: false } },
      { websites: [] },
      options,
    );
    const { client, log } = testClient({ timeoutMs: 100 });
    const [item] = (await apply(p, client, { passwordOf: () => undefined })).items;
    expect(log[0]).toMatchObject({ method: "POST", error: expect.stringMatching(/no answer within 100 ms/) });
    expect(item).toMatchObject({ status: "applied", id: 6, reason: "adopted" });
    expect(posts).toBe(1);
  });
});

describe('apply: a delete the server refuses is a failure, never "already gone"', () => {
  const deletes: Plan = plan(
    { websites: [{ domain: "old.example.com", state: "absent" }], projects: [{ project: "old.example.org", state: "absent" }], policy },
    {
      websites: [liveWebsite(9, "old.example.com")],
      projects: [{ project: "old.example.org", reports: 1, result: 50, created_at: "2024-01-01T00:00:00.000000Z" }],
    },
    options,
  );

  it.each([500, 409, 422])("keeps a %i answer to DELETE as a failure with its status", async (status) => {
    const refuse = () => HttpResponse.json({ message: status === 422 ? { id: ["cannot be deleted"] } : "No.", status }, { status });
    server.use(http.delete(`${WEBSITES}/9`, refuse), http.delete(`${PROJECTS}/:name`, refuse));
    const { client } = testClient({ retries: 1 });
    const result = await apply(deletes, client, { passwordOf: () => undefined });
    expect(result.items.map((i) => [i.change.action, i.status, i.error?.status, i.note])).toEqual([
      ["delete", "failed", status, undefined],
      ["delete", "failed", status, undefined],
    ]);
    expect(result.counts).toMatchObject({ applied: 0, failed: 2 });
  });

  it("counts a 404 as done: the website or project is already gone", async () => {
    const gone = () => HttpResponse.json({ message: "Resource not found.", status: 404 }, { status: 404 });
    server.use(http.delete(`${WEBSITES}/9`, gone), http.delete(`${PROJECTS}/:name`, gone));
    const result = await apply(deletes, testClient().client, { passwordOf: () => undefined });
    expect(result.items.map((i) => [i.status, i.reason])).toEqual([
      ["applied", "already-gone"],
      ["applied", "already-gone"],
    ]);
  });
});
