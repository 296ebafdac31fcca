import { describe, expect, it } from "vitest";
import { liveWebsite } from "../../test/helpers/live-website.ts";
import type { ConfigChange } from "../model/config-change.ts";
import { DEFAULT_POLICY } from "../model/policy.ts";
import type { Desired, Live } from "../model/state.ts";
import { plan } from "../plan/plan.ts";
import { render } from "./index.ts";

const PASSWORD = "hunter2-Secret";
const desired: Desired = {
  policy: DEFAULT_POLICY,
  websites: [
    { domain: "a.example.com", state: "present", exclude_params: ["utm_source", "fbclid"] },
    { domain: "shop.example.com", state: "present", privacy: 2, password: PASSWORD, passwordVersion: "2" },
    { domain: "quiet.example.com", state: "present", email: 1 },
  ],
};
const live: Live = {
  websites: [
    liveWebsite(1, "a.example.com"),
    liveWebsite(2, "shop.example.com", { privacy: 2, password: true }),
    // Drift of an untouched website: a scoped plan never sees it, and says so.
    liveWebsite(3, "quiet.example.com", { email: 0 }),
  ],
};
const change: ConfigChange = {
  ref: "HEAD~1",
  commit: "0123456789abcdef0123456789abcdef01234567",
  websites: [
    { domain: "a.example.com", touch: "changed", edited: ["exclude_params"], send: [{ field: "exclude_params", edit: "edited" }] },
    { domain: "shop.example.com", touch: "changed", edited: ["password_version"], send: [{ field: "password", edit: "rotated" }] },
  ],
  projects: [],
  fullRead: [],
};
const options = { configFile: "sitesync.yaml", configDigest: "abc" };
const scoped = plan(desired, live, { ...options, change: { known: true, change, read: "scoped" }, reads: 3 });

describe("a plan that follows the change says so in every format", () => {
  it("text: what was read, what was not evaluated, and why each write-only value is sent, never the value", () => {
    expect(render(scoped, "text")).toMatchInlineSnapshot(`
      "Scoped to the change since HEAD~1 (0123456789ab): only the 2 websites it touches were read and compared.
      Not evaluated: drift of websites and projects the change does not touch; live websites and projects the file does not list. A plan without --changed-since (or with --full) reads them.

      Planned changes (sitesync.yaml):

        ~ update  a.example.com (id 1)
            exclude_params: [utm_source, fbclid], sent: changed since HEAD~1

        ~ update  shop.example.com (id 2)
            password: (sensitive), sent: rotated since HEAD~1

      Plan: 0 to create, 2 to update, 0 to delete, 0 unchanged, 0 unmanaged.
      ≈ 5 requests: 3 reads, 2 writes; up to 1 min at 60/min.
      "
    `);
  });

  it("markdown: the same, in a note at the top", () => {
    const text = render(scoped, "markdown");
    expect(text).toContain("Scoped to the change since HEAD~1 (0123456789ab)");
    expect(text).toContain("Not evaluated: drift of websites and projects the change does not touch");
    expect(text).toContain("(sensitive) _(sent: rotated since HEAD~1)_");
    expect(text).toContain("sent: changed since HEAD~1");
    expect(text).not.toContain(PASSWORD);
  });

  it("json: the codes", () => {
    const json = JSON.parse(render(scoped, "json"));
    expect(json.since).toMatchObject({ read: "scoped", notEvaluated: ["untouched-drift", "unlisted-live"] });
    expect(json.estimate).toMatchObject({ reads: 3, requests: 2 });
  });

  it("says why it read in full, and when no change is known", () => {
    const full = plan(desired, live, { ...options, change: { known: true, change, read: "full", because: ["defaults", "full-flag"] } });
    expect(render(full, "text")).toContain("Follows the change since HEAD~1 (0123456789ab), read in full: defaults changed; --full.");
    const unknown = plan(desired, live, { ...options, change: { known: false, ref: "main", reason: "base-missing" } });
    expect(render(unknown, "text")).toContain(
      "No change known since main (the config file does not exist there): the account was read in full.",
    );
  });

  it("without a change, counts the write-only values it cannot verify and names both ways to send them", () => {
    const none = plan(desired, live, { ...options, reads: 1 });
    expect(render(none, "text")).toContain(
      "The API never returns password (1 website) and exclude_params (1 website), so the plan cannot verify those values: --changed-since REF sends the ones a commit edits, --sync-write-only sends every one the file sets.",
    );
  });

  it("with a change asked for but unknown, says its edits are not sent, not to ask for it again", () => {
    const unknown = plan(desired, live, { ...options, change: { known: false, ref: "HEAD~1", reason: "ref-unknown" } });
    const text = render(unknown, "text");
    expect(text).toContain(
      "so the plan cannot verify those values: the change since HEAD~1 could not be read (said above), so the values it edits are not sent: make that revision readable and plan again, or --sync-write-only sends every one the file sets.",
    );
    expect(text).not.toContain("--changed-since REF");
    expect(render(unknown, "markdown")).toContain(
      "cannot be verified: `password` on 1 website, `exclude_params` on 1 website. The change since HEAD~1 could not be read (said above)",
    );
  });

  it("estimates reads and writes, and the time at the server's limit", () => {
    const big = plan(desired, live, { ...options, reads: 101 });
    // Past the first window's 60: one more window from a fresh one, two from one another run just spent.
    expect(render(big, "text")).toContain("≈ 102 requests: 101 reads, 1 write; about 1–2 min at 60/min.");
  });
});
