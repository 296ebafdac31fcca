/** `apply` against exact HTTP edge cases (msw): a refused key ends the run, partial creates keep their id. */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { apply } from "../../src/apply/apply.ts";
import { plan } from "../../src/plan/plan.ts";
import { liveWebsite } from "../helpers/live-website.ts";
import { apiWebsite, testClient, WEBSITES } from "../api/helpers.ts";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const policy = { prune: true, maxDeletes: 100, protect: [], ignore: [] };
const options = { configFile: "sitesync.yaml", configDigest: "d" };

describe("apply", () => {
  it("stops sending once the key is refused: queued requests are skipped, not sent", async () => {
    let deletes = 0;
    server.use(http.delete(`${WEBSITES}/:id`, () => (deletes++, HttpResponse.json({ message: "Unauthenticated." }, { status: 401 }))));
    const live = [liveWebsite(100, "keep.example.com"), ...Array.from({ length: 20 }, (_, i) => liveWebsite(i + 1, `prune-${i}.example.com`))];
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
    const p = plan({ websites: [{ domain: "fav.example.com", state: "present", favorite: true }], policy: { ...policy, prune: false } }, { websites: [] }, options);
    const { client } = testClient();
    const [item] = (await apply(p, client, { passwordOf: () => undefined })).items;
    expect(item).toMatchObject({ status: "failed", id: 77 });
    expect(item!.note).toContain("created (id 77) but not made a favorite");
  });

  it("adopts the site when a POST that timed out turns out to have created it (422 already taken on the retry)", async () => {
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
        return HttpResponse.json({ data, links: { next: null }, meta: { current_page: 1, last_page: 1, per_page: 100, total: data.length, from: data.length ? 1 : null, to: data.length || null }, status: 200, url: request.url });
      }),
    );
    const p = plan({ websites: [{ domain: "slow.example.com", state: "present" }], policy: { ...policy, prune: false } }, { websites: [] }, options);
    const { client } = testClient();
    const [item] = (await apply(p, client, { passwordOf: () => undefined })).items;
    expect(item).toMatchObject({ status: "applied", id: 5 });
    expect(posts).toBe(2);
  });
});
