import { describe, expect, it } from "vitest";
import { liveWebsite } from "../../test/helpers/live-website.ts";
import { DEFAULT_POLICY } from "../model/policy.ts";
import type { Desired, Live } from "../model/state.ts";
import { planHash, projectFingerprint, websiteFingerprint } from "../plan/fingerprint.ts";
import { plan } from "../plan/plan.ts";
import type { Plan } from "../plan/types.ts";
import { render } from "./index.ts";

const ANSI = /\u001b\[/;
const PASSWORD = "hunter2-Secret";

const site = liveWebsite;
const src = (line: number) => ({ file: "sitesync.yaml", line, column: 5 });

/** One of every action, a warning, an unverifiable value and a refusal (3 deletes over a limit of 2). */
const desired: Desired = {
  policy: { ...DEFAULT_POLICY, prune: true, maxDeletes: 2, ignore: ["tmp-*"] },
  websites: [
    { domain: "new.example.com", state: "present", privacy: 2, password: PASSWORD, favorite: true, source: src(8) },
    {
      domain: "example.com",
      state: "present",
      privacy: 2,
      password: PASSWORD,
      email: 1,
      exclude_ips: ["1.2.3.4", "9.9.9.9"],
      exclude_params: ["utm_source"],
      source: src(15),
    },
    { domain: "old.example.com", state: "absent", source: src(22) },
    { domain: "tmp-a.example.com", state: "present", source: src(24) },
  ],
  projects: [{ project: "retired.example.com", state: "absent" }],
};
const live: Live = {
  websites: [site(12, "example.com", { exclude_ips: ["5.6.7.8", "9.9.9.9"] }), site(7, "old.example.com"), site(9, "stray.example.org")],
  projects: [{ project: "retired.example.com", reports: 2, result: 120, created_at: "2024-01-01T00:00:00.000000Z" }],
};
const full = plan(desired, live, { configFile: "sitesync.yaml", configDigest: "abc123" });
const empty = plan(
  { policy: DEFAULT_POLICY, websites: [{ domain: "example.com", state: "present", email: 0 }] },
  { websites: [site(12, "example.com"), site(13, "other.example.com")] },
  { configFile: "sitesync.yaml", configDigest: "abc123" },
);

describe("text", () => {
  it("reads like Terraform, with deletes, warnings and the refusal spelled out", () => {
    expect(render(full, "text")).toMatchInlineSnapshot(`
      "Planned changes (sitesync.yaml):

        + create  new.example.com
            privacy: password
            password: (sensitive)
            email: false
            exclude_bots: true
            favorite: true

        ~ update  example.com (id 12)
            privacy: public → password
            password: (sensitive) (write-only, not verified)
            email: false → true
            exclude_ips: + 1.2.3.4, - 5.6.7.8

        - delete  old.example.com (id 7, state: absent): destroys its collected statistics
        - delete  stray.example.org (id 9, not listed, prune on): destroys its collected statistics
        - delete  project retired.example.com (state: absent): deletes its reports

      Warnings:
        ! tmp-a.example.com matches policy.ignore "tmp-*": it is not compared, changed or deleted.
        ! The API never returns exclude_params (1 website), so the plan cannot verify those values: --changed-since REF sends the ones a commit edits, --sync-write-only sends every one the file sets.

      Plan: 1 to create, 1 to update, 3 to delete, 0 unchanged, 0 unmanaged, 1 ignored.
      ≈ 8 requests: 2 reads, 6 writes; up to 1 min at 60/min.

      Refused: this plan will not be applied.
        ✗ The plan deletes 2 websites and 1 project, more than the limit of 2. Check every delete, then run again with --max-deletes 3 (or raise policy.max_deletes).
      "
    `);
  });

  it("says when there is nothing to do", () => {
    expect(render(empty, "text")).toMatchInlineSnapshot(`
      "No changes. The account matches the configuration.
      Plan: 0 to create, 0 to update, 0 to delete, 1 unchanged, 1 unmanaged.
      ≈ 1 request: 1 read, 0 writes; up to 1 min at 60/min.
      "
    `);
  });

  it("adds config positions and fingerprints when verbose", () => {
    const text = render(full, "text", { verbose: true });
    expect(text).toContain("+ create  new.example.com (sitesync.yaml:8:5)");
    expect(text).toMatch(/~ update {2}example\.com \(id 12\) \(sitesync\.yaml:15:5\) \[[0-9a-f]{16}\]/);
  });

  it("uses ANSI colors only when asked", () => {
    expect(render(full, "text", { color: true })).toMatch(ANSI);
    expect(render(full, "text", { color: false })).not.toMatch(ANSI);
    expect(render(full, "text")).not.toMatch(ANSI);
  });
});

describe("json", () => {
  it("is the plan itself, indented, and never colored", () => {
    const json = render(full, "json", { color: true });
    expect(JSON.parse(json)).toEqual(full);
    expect(json).not.toMatch(ANSI);
    expect(json.endsWith("}\n")).toBe(true);
  });

  it("reads back with the same hash, so a saved plan can be checked before apply", () => {
    const { hash, ...rest } = JSON.parse(render(full, "json")) as Plan;
    expect(planHash(rest)).toBe(hash);
  });

  it("saves every action with what apply and a reviewer need: values, sources, live fingerprints", () => {
    const saved = JSON.parse(render(full, "json")) as Plan;
    expect(saved).toMatchObject({ format: "sitesync-plan", version: 1, configDigest: "abc123", configFile: "sitesync.yaml", target: {} });
    expect(saved.hash).toMatch(/^[0-9a-f]{64}$/);
    const [example, old, stray] = live.websites;
    expect(saved.changes).toEqual([
      {
        kind: "website",
        action: "create",
        domain: "new.example.com",
        // Explicit privacy, email and exclude_bots on create (DESIGN §2), favorite by a second request (§4).
        fields: [
          { field: "privacy", before: null, after: 2 },
          { field: "password", before: null, after: "(sensitive)", sensitive: true, writeOnly: true },
          { field: "email", before: null, after: 0 },
          { field: "exclude_bots", before: null, after: 1 },
          { field: "favorite", before: null, after: true },
        ],
        requests: 2,
        source: src(8),
      },
      {
        kind: "website",
        action: "update",
        domain: "example.com",
        id: 12,
        fields: [
          { field: "privacy", before: 0, after: 2 },
          { field: "password", before: null, after: "(sensitive)", sensitive: true, writeOnly: true, sentBecause: "privacy-change" },
          { field: "email", before: 0, after: 1 },
          { field: "exclude_ips", before: ["5.6.7.8", "9.9.9.9"], after: ["1.2.3.4", "9.9.9.9"] },
        ],
        fingerprint: websiteFingerprint(example!),
        source: src(15),
      },
      {
        kind: "website",
        action: "delete",
        domain: "old.example.com",
        id: 7,
        reason: "tombstone",
        fingerprint: websiteFingerprint(old!),
        source: src(22),
      },
      { kind: "website", action: "delete", domain: "stray.example.org", id: 9, reason: "prune", fingerprint: websiteFingerprint(stray!) },
      {
        kind: "project",
        action: "delete",
        project: "retired.example.com",
        reason: "tombstone",
        fingerprint: projectFingerprint(live.projects![0]!),
      },
    ]);
    expect(saved.summary).toEqual({ create: 1, update: 1, delete: 3, unchanged: 0, unmanaged: 0, ignored: 1 });
    expect(saved.warnings).toEqual([
      {
        code: "ignored",
        subject: "tmp-a.example.com",
        message: 'tmp-a.example.com matches policy.ignore "tmp-*": it is not compared, changed or deleted.',
        source: src(24),
      },
    ]);
    expect(saved.refusals).toEqual([{ code: "max-deletes", websites: 2, projects: 1, limit: 2, partial: false }]);
    expect(saved.unverifiable).toEqual([{ field: "exclude_params", count: 1 }]);
    // A library plan given its live state: a full read's 2 pages, 6 writes, the budget unknown.
    expect(saved.estimate).toEqual({ requests: 6, reads: 2, rateLimit: 60, rateWindowSeconds: 60, seconds: 0, secondsAtMost: 60 });
  });

  it("is the same file, byte for byte, whatever order the config and the account list things in", () => {
    const shuffled = plan(
      { ...desired, websites: [...desired.websites].reverse() },
      { ...live, websites: [...live.websites].reverse() },
      { configFile: "sitesync.yaml", configDigest: "abc123" },
    );
    expect(render(shuffled, "json")).toBe(render(full, "json"));
  });

  it("gets another hash when any planned value changes, so an edited file is caught", () => {
    const { hash, ...rest } = full;
    const edited = structuredClone(rest);
    const update = edited.changes.find((c) => c.action === "update")!;
    update.fields.find((f) => f.field === "email")!.after = 0;
    expect(planHash(edited)).not.toBe(hash);
    expect(planHash(structuredClone(rest))).toBe(hash);
  });
});

describe("text: the file that holds each change", () => {
  it("heads each file's changes with it, the root's for a delete no file lists", () => {
    const client = (line: number) => ({ file: "clients/acme.yaml", line, column: 5 });
    const fleet = plan(
      {
        policy: { ...DEFAULT_POLICY, prune: true },
        websites: [
          { domain: "acme.com", state: "present", source: client(3) },
          { domain: "root.example.com", state: "present", email: 1, source: src(9) },
        ],
      },
      { websites: [site(1, "root.example.com"), site(2, "stray.example.org")] },
      { configFile: "sitesync.yaml", configDigest: "abc123" },
    );
    const text = render(fleet, "text");
    expect(text.match(/^Planned changes \(.*\):$/gm)).toEqual(["Planned changes (clients/acme.yaml):", "Planned changes (sitesync.yaml):"]);
    expect(text.indexOf("+ create  acme.com")).toBeLessThan(text.indexOf("Planned changes (sitesync.yaml):"));
    expect(text.indexOf("delete  stray.example.org")).toBeGreaterThan(text.indexOf("Planned changes (sitesync.yaml):"));
  });
});

describe("markdown", () => {
  it("summarizes for a pull request: refusal callout, tables per action, statistics warning", () => {
    expect(render(full, "markdown")).toMatchInlineSnapshot(`
      "### sitesync plan for sitesync.yaml

      > [!CAUTION]
      > **Refused: this plan will not be applied.**
      >
      > - The plan deletes 2 websites and 1 project, more than the limit of 2. Check every delete, then run again with --max-deletes 3 (or raise policy.max\\_deletes).

      | Create | Update | Delete | Unchanged | Unmanaged | Ignored |
      | ---: | ---: | ---: | ---: | ---: | ---: |
      | 1 | 1 | 3 | 0 | 0 | 1 |

      #### Create (1)

      | Website | Field | Value |
      | --- | --- | --- |
      | new.example.com | privacy | password |
      |  | password | (sensitive) |
      |  | email | false |
      |  | exclude_bots | true |
      |  | favorite | true |

      #### Update (1)

      | Website | Field | Before | After |
      | --- | --- | --- | --- |
      | example.com (id 12) | privacy | public | password |
      |  | password |  | (sensitive) _(write-only, not verified)_ |
      |  | email | false | true |
      |  | exclude_ips | − 5.6.7.8 | + 1.2.3.4 |

      #### Delete (3)

      > [!WARNING]
      > Deleting 2 websites **destroys their collected statistics**. This cannot be undone.
      > Deleting 1 project deletes its reports.

      | Item | Reason |
      | --- | --- |
      | website old.example.com (id 7) | state: absent |
      | website stray.example.org (id 9) | not listed, prune on |
      | project retired.example.com | state: absent |

      #### Warnings

      - tmp-a.example.com matches policy.ignore "tmp-\\*": it is not compared, changed or deleted. (sitesync.yaml:24)

      > [!NOTE]
      > Write-only values the API never returns cannot be verified: \`exclude_params\` on 1 website. A plan that follows the change (\`--changed-since REF\`; the Action's \`changed-since\`, automatic on pull requests) sends the ones a commit edits, \`--sync-write-only\` (the Action's \`sync-write-only: true\`) sends every one the file sets.

      <sub>≈ 8 requests: 2 reads, 6 writes; up to 1 min at 60/min · plan 3783c2475c8b</sub>
      "
    `);
  });

  it("says when there is nothing to do", () => {
    expect(render(empty, "markdown")).toMatchInlineSnapshot(`
      "### sitesync plan for sitesync.yaml

      | Create | Update | Delete | Unchanged | Unmanaged |
      | ---: | ---: | ---: | ---: | ---: |
      | 0 | 0 | 0 | 1 | 1 |

      **No changes.** The account matches the configuration.

      <sub>≈ 1 request: 1 read, 0 writes; up to 1 min at 60/min · plan 3d84f726c498</sub>
      "
    `);
  });

  it("never colors, even when the caller asks for colors (a PR comment would show raw escape codes)", () => {
    const asked = render(full, "markdown", { color: true, verbose: true });
    expect(asked).not.toMatch(ANSI);
    expect(asked).toBe(render(full, "markdown"));
  });

  it("escapes names that would break a table or become markup", () => {
    const odd = plan(
      { policy: { ...DEFAULT_POLICY, prune: true }, websites: [{ domain: "kept.example.com", state: "present" }] },
      { websites: [site(1, "kept.example.com"), site(2, "a|b<img>`x`*y*.example.com")] },
      { configFile: "sitesync.yaml", configDigest: "abc123" },
    );
    const markdown = render(odd, "markdown");
    const row = markdown.split("\n").find((line) => line.startsWith("| website a"));
    expect(row).toBe("| website a\\|b&lt;img&gt;\\`x\\`\\*y\\*.example.com (id 2) | not listed, prune on |");
  });
});

it("renders secrets as (sensitive) in every format", () => {
  for (const format of ["text", "json", "markdown"] as const) {
    const output = render(full, format, { color: true, verbose: true });
    expect(output).toContain("(sensitive)");
    expect(output).not.toContain(PASSWORD);
  }
});

it("never lets a name from the account send terminal escapes", () => {
  const hostile = plan(
    { policy: { ...DEFAULT_POLICY, prune: true }, websites: [{ domain: "x.example.com", state: "present" }] },
    { websites: [site(1, "x.example.com"), site(2, "\u001b]0;owned\u0007.example.com")] },
    { configFile: "sitesync.yaml", configDigest: "abc123" },
  );
  const text = render(hostile, "text");
  expect(text).toContain("- delete  \\e]0;owned\\x07.example.com (id 2");
  expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
});

describe("a partial plan (--target / --exclude) says so in every format", () => {
  const partial = plan(desired, live, {
    configFile: "sitesync.yaml",
    configDigest: "abc123",
    selection: { target: ["*.example.com"], exclude: ["old.*"] },
  });
  const nothing = plan(desired, live, {
    configFile: "sitesync.yaml",
    configDigest: "abc123",
    selection: { target: ["example.com"], exclude: [] },
  });

  it("text: a banner at the top and at the bottom, with the patterns as they would be typed", () => {
    const lines = render(partial, "text").trimEnd().split("\n");
    expect(lines.slice(0, 2)).toEqual([
      "PARTIAL PLAN: --target '*.example.com' --exclude 'old.*'",
      "Only the websites and projects these patterns select were compared. Everything else was left out: not compared, changed, deleted or counted.",
    ]);
    expect(lines.at(-1)).toBe(
      "PARTIAL PLAN: --target '*.example.com' --exclude 'old.*' (websites and projects outside it were not compared)",
    );
    expect(render(partial, "text")).not.toContain("old.example.com");
  });

  it("text: no changes means none inside the selection, not that the account matches", () => {
    const text = render({ ...nothing, changes: [] }, "text");
    expect(text).toContain("No changes inside the selection.");
    expect(text).not.toContain("The account matches");
  });

  it("markdown: a note at the top, before the counts, so the Action's summary shows it", () => {
    const markdown = render(partial, "markdown");
    const [heading, note, counts] = markdown.split("\n\n");
    expect(heading).toBe("### sitesync plan for sitesync.yaml");
    expect(note).toBe(
      "> [!IMPORTANT]\n> **Partial plan: --target \\*.example.com --exclude old.\\*.** Only the websites and projects these " +
        "patterns select were compared. Everything else was left out: not compared, changed, deleted or counted.",
    );
    expect(counts).toMatch(/^\| Create \| Update \| Delete/);
    expect(markdown.trimEnd().split("\n").at(-1)).toMatch(/ · partial<\/sub>$/);
  });

  it("json: the selection field, and none on a full plan", () => {
    expect(JSON.parse(render(partial, "json")).selection).toEqual({ target: ["*.example.com"], exclude: ["old.*"] });
    expect(JSON.parse(render(full, "json"))).not.toHaveProperty("selection");
    expect(render(full, "text")).not.toContain("PARTIAL");
    expect(render(full, "markdown")).not.toContain("Partial");
  });

  it("never lets a pattern send terminal escapes or break Markdown", () => {
    const hostile = { ...partial, selection: { target: ["a\u001b[31m*|<b>"], exclude: [] } };
    expect(render(hostile, "text")).not.toMatch(ANSI);
    expect(render(hostile, "markdown")).not.toContain("\u001b");
    expect(render(hostile, "markdown")).toContain("a\\\\e\\[31m\\*\\|&lt;b&gt;");
  });
});

describe("every plan names the account it read (DESIGN §2: the account is never a surprise)", () => {
  const against = { ...empty, target: { websites: "https://stats.eu.example.com", projects: "https://seo.eu.example.com" } };

  it("in text, Markdown and JSON", () => {
    expect(render(against, "text").split("\n")[0]).toBe(
      "Account: https://stats.eu.example.com (websites), https://seo.eu.example.com (projects)",
    );
    expect(render(against, "markdown")).toContain(
      "### sitesync plan for sitesync.yaml\n\nAccount: https://stats.eu.example.com (websites), https://seo.eu.example.com (projects)",
    );
    expect(JSON.parse(render(against, "json")).target).toEqual(against.target);
  });

  it("once when both APIs are at one address", () => {
    const one = { ...empty, target: { websites: "http://127.0.0.1:8080", projects: "http://127.0.0.1:8080" } };
    expect(render(one, "text").split("\n")[0]).toBe("Account: http://127.0.0.1:8080");
  });
});
