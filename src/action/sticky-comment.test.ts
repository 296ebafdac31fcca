import { describe, expect, it } from "vitest";
import { section, sectionOf } from "./comment-sections.ts";
import { upsertSections } from "./sticky-comment.ts";

const BOT = { login: "github-actions[bot]", type: "Bot" };
const MARKER = "<!-- sitesync-plan: sitesync.yaml -->";

/**
 * GitHub's issue comments in memory, last writer wins as on GitHub. Each leg's first read waits until every
 * leg has read: the legs then write from the same stale view, the race of legs finishing at the same moment.
 */
function fakeGitHub(legs: number) {
  const comments: { id: number; body: string; user: typeof BOT }[] = [];
  let nextId = 1;
  let waiting: (() => void)[] = [];
  const firstReads = new Set<symbol>();
  const barrier = (leg: symbol) =>
    firstReads.has(leg)
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          firstReads.add(leg);
          waiting.push(resolve);
          if (waiting.length === legs) for (const release of waiting.splice(0)) release();
        });
  const octokitFor = (leg: symbol) =>
    ({
      paginate: async () => {
        await barrier(leg);
        return comments.map((c) => ({ ...c }));
      },
      rest: {
        issues: {
          listComments: () => undefined,
          createComment: async ({ body }: { body: string }) => {
            const comment = { id: nextId++, body, user: BOT };
            comments.push(comment);
            return { data: { id: comment.id, html_url: `#${comment.id}` } };
          },
          updateComment: async ({ comment_id, body }: { comment_id: number; body: string }) => {
            const comment = comments.find((c) => c.id === comment_id)!;
            comment.body = body;
            return { data: { id: comment.id, html_url: `#${comment.id}` } };
          },
          deleteComment: async ({ comment_id }: { comment_id: number }) => {
            comments.splice(
              comments.findIndex((c) => c.id === comment_id),
              1,
            );
          },
        },
      },
    }) as unknown as Parameters<typeof upsertSections>[0];
  waiting = [];
  return { comments, octokitFor };
}

const target = { owner: "acme", repo: "sites", issueNumber: 7, marker: MARKER, identity: BOT.login };

describe("upsertSections", () => {
  it("two legs that read at the same moment leave one comment with both sections, after verifying", async () => {
    const github = fakeGitHub(2);
    const eu = section("eu", "eu plan: 1 to create");
    const us = section("us", "us plan: 2 to create");
    // The pause before reading back has a random part (as in the Action): legs never stay in lockstep.
    const options = { verify: true, settleMs: 5 };
    await Promise.all([
      upsertSections(github.octokitFor(Symbol("eu")), target, new Map([["eu", eu]]), options),
      upsertSections(github.octokitFor(Symbol("us")), target, new Map([["us", us]]), options),
    ]);
    expect(github.comments).toHaveLength(1);
    const body = github.comments[0]!.body;
    expect(body.startsWith(`${MARKER}\n`)).toBe(true);
    expect(sectionOf(body, "eu")).toBe(eu);
    expect(sectionOf(body, "us")).toBe(us);
  });

  it("replaces its own section on the next run and keeps the other's", async () => {
    const github = fakeGitHub(1);
    const options = { verify: true, settleMs: 0, sleep: () => Promise.resolve() };
    await upsertSections(github.octokitFor(Symbol("a")), target, new Map([["us", section("us", "old")]]), options);
    await upsertSections(github.octokitFor(Symbol("b")), target, new Map([["eu", section("eu", "eu")]]), options);
    await upsertSections(github.octokitFor(Symbol("c")), target, new Map([["us", section("us", "new")]]), options);
    expect(github.comments).toHaveLength(1);
    expect(sectionOf(github.comments[0]!.body, "us")).toBe(section("us", "new"));
    expect(sectionOf(github.comments[0]!.body, "eu")).toBe(section("eu", "eu"));
  });

  it("writes a config without accounts: as the whole comment, once, and reads a comment written before sections existed", async () => {
    const github = fakeGitHub(1);
    github.comments.push({ id: 1, body: `${MARKER}\nthe plan of an older sitesync\n`, user: BOT });
    const options = { verify: false };
    await upsertSections(github.octokitFor(Symbol("a")), target, new Map([["", section("", "the plan now")]]), options);
    expect(github.comments).toEqual([{ id: 1, body: `${MARKER}\nthe plan now\n`, user: BOT }]);
  });
});
