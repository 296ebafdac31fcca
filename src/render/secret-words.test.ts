import { describe, expect, it } from "vitest";
import { liveWebsite } from "../../test/helpers/live-website.ts";
import type { ItemResult } from "../apply/types.ts";
import { DEFAULT_POLICY } from "../model/policy.ts";
import { plan } from "../plan/plan.ts";
import type { Change } from "../plan/types.ts";
import { changeLine } from "./change-line.ts";
import { render } from "./index.ts";
import { itemNote } from "./item-note.ts";

const src = (line: number) => ({ file: "sitesync.yaml", line, column: 5 });

/** An exported file: password sites without a password. One was deleted in the web UI, one became private there. */
const flagged = plan(
  {
    policy: DEFAULT_POLICY,
    websites: [
      { domain: "gone.example.com", state: "present", privacy: 2, source: src(6) },
      { domain: "locked.example.com", state: "present", privacy: 2, source: src(8) },
      { domain: "kept.example.com", state: "present", privacy: 2, source: src(10) },
    ],
  },
  {
    websites: [
      liveWebsite(2, "locked.example.com", { privacy: 1, password: false }),
      liveWebsite(3, "kept.example.com", { privacy: 2, password: true }),
    ],
  },
  { configFile: "sitesync.yaml", configDigest: "abc123" },
);
const [create, update] = flagged.changes as [Change, Change];

describe("a change that needs a secret the config does not set (DESIGN §2, §7)", () => {
  it("is planned, counted and flagged in the text plan, naming what to add and where", () => {
    expect(flagged.summary).toMatchObject({ create: 1, update: 1, unchanged: 1 });
    expect(render(flagged, "text")).toMatchInlineSnapshot(`
      "Planned changes (sitesync.yaml):

        + create  gone.example.com
            privacy: password
            email: false
            exclude_bots: true
            ! needs a password (it is created with privacy password): add "password: \${STATS_PASSWORD}" to this website (sitesync.yaml:6:5) or to defaults, and set STATS_PASSWORD; apply refuses this change until then

        ~ update  locked.example.com (id 2)
            privacy: private → password
            ! needs a password (it becomes password-protected and the account stores no password for it): add "password: \${STATS_PASSWORD}" to this website (sitesync.yaml:8:5) or to defaults, and set STATS_PASSWORD; apply refuses this change until then

      Plan: 1 to create, 1 to update, 0 to delete, 1 unchanged, 0 unmanaged.
      2 changes need a password the config does not set: apply refuses them until the config sets one.
      ≈ 3 requests: 1 read, 2 writes; up to 1 min at 60/min.
      "
    `);
  });

  it("is flagged in Markdown where a pull request always shows it, and in the tables", () => {
    const markdown = render(flagged, "markdown");
    const head = markdown.slice(0, markdown.indexOf("#### Create"));
    expect(head).toContain(
      "> [!WARNING]\n> **2 changes need a password the config does not set: apply refuses them until the config sets one.**",
    );
    expect(head).toContain(
      '> - gone.example.com: needs a password (it is created with privacy password): add "password: ${STATS\\_PASSWORD}"',
    );
    expect(markdown).toContain("|  | password | **not set: apply refuses this change** |");
    expect(markdown).toContain("|  | password |  | **not set: apply refuses this change** |");
  });

  it("is data in the JSON plan, never a warning", () => {
    const json = JSON.parse(render(flagged, "json"));
    expect(json.changes.map((c: Change & { needs?: unknown }) => c.needs)).toEqual([
      { secret: "password", because: "create" },
      { secret: "password", because: "privacy-change" },
    ]);
    expect(json.warnings).toEqual([]);
  });

  it("reads the same in apply's refusal and in an annotation as in the plan", () => {
    const refused: ItemResult = { change: create, status: "skipped", reason: "needs-secret" };
    const words =
      'needs a password (it is created with privacy password): add "password: ${STATS_PASSWORD}" to this website (sitesync.yaml:6:5) or to defaults, and set STATS_PASSWORD; apply refuses this change until then';
    expect(itemNote(refused)).toBe(words);
    expect(render(flagged, "text")).toContain(`! ${words}`);
    expect(changeLine(create, { kind: true, fields: "names", consequence: true })).toBe(`create website gone.example.com: ${words}`);
    expect(changeLine(update, { kind: true, fields: "names", consequence: true })).toMatch(
      /^update website locked\.example\.com \(id 2\): privacy; needs a password \(it becomes/,
    );
  });
});
