import { createHash } from "node:crypto";
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import { describe, expect, it } from "vitest";
import { liveWebsite as site } from "../../test/helpers/live-website.ts";
import { DEFAULT_POLICY } from "../model/policy.ts";
import type { DesiredWebsite } from "../model/website.ts";
import { planHash } from "../plan/fingerprint.ts";
import { plan } from "../plan/plan.ts";
import type { Plan } from "../plan/types.ts";
import { COMMENT_LIMIT, markerFor } from "./compose.ts";
import { decodeReviewedBlock, type EncodedBlock, encodeReviewedBlock, REVIEWED_BLOCK_BUDGET } from "./reviewed-block.ts";

const HEAD = "0123456789abcdef0123456789abcdef01234567";
const PASSWORD = "correct-horse-battery-staple";

function planOf(websites: DesiredWebsite[], liveCount = 0): Plan {
  const live = Array.from({ length: liveCount }, (_, i) =>
    site(i + 1, `site-${i}.example.com`, { updated_at: `2025-01-0${(i % 9) + 1}T03:04:05.000000Z` }),
  );
  return plan(
    { websites, policy: { ...DEFAULT_POLICY, prune: true, maxDeletes: 1 } },
    { websites: live },
    {
      configFile: "sitesync.yaml",
      configDigest: "c0nf19",
      target: { websites: "https://analytics.example.com" },
    },
  );
}

const reviewedPlan = planOf(
  [
    { domain: "site-0.example.com", state: "present", privacy: 2, password: PASSWORD },
    { domain: "new.example.com", state: "present", privacy: 2, password: PASSWORD, favorite: true },
  ],
  2,
);

function encoded(p: Plan = reviewedPlan, budget?: number): EncodedBlock {
  const result = encodeReviewedBlock(p, { headSha: HEAD, config: "sites/sitesync.yaml" }, budget);
  if ("problem" in result) throw new Error(result.problem);
  return result;
}

/** A comment as the plan job writes it: marker, visible plan, then the block. */
const comment = (block: string) =>
  `${markerFor("sites/sitesync.yaml")}\n### sitesync plan\n\n1 to create, 1 to update, 1 to delete\n${block}`;

/** The JSON inside a block, as anyone reading the comment's source can get it. */
function payloadJson(block: string): string {
  const payload = block.trim().split(" ")[4]!;
  return brotliDecompressSync(Buffer.from(payload, "base64")).toString("utf8");
}

/** The block of `json`, re-encoded the way a person editing it by hand would, with `digestOf` as its digest. */
function reencode(json: string, digestOf: string): string {
  const payload = brotliCompressSync(json).toString("base64");
  const digest = createHash("sha256").update(digestOf).digest("hex");
  return `\n<!-- sitesync-reviewed v1 sha256=${digest} ${payload} -->\n`;
}

describe("the reviewed plan in the sticky comment", () => {
  it("reads back exactly the plan, head commit and config it was stored with", () => {
    const { block, length } = encoded();
    expect(length).toBe(block.length);
    expect(block).toMatch(/^\n<!-- sitesync-reviewed v1 sha256=[0-9a-f]{64} [A-Za-z0-9+/=]+ -->\n$/);
    expect(decodeReviewedBlock(comment(block), { headSha: HEAD, config: "sites/sitesync.yaml" })).toEqual({
      plan: reviewedPlan,
      headSha: HEAD,
      config: "sites/sitesync.yaml",
    });
  });

  it("holds no secret: a password site is stored as (sensitive)", () => {
    expect(reviewedPlan.changes.map((c) => c.action)).toEqual(["create", "update", "delete"]);
    const { block } = encoded();
    const json = payloadJson(block);
    expect(json).toContain('"after":"(sensitive)"');
    expect(json).not.toContain(PASSWORD);
    expect(block).not.toContain(PASSWORD);
  });

  it.each([
    ["first", 0],
    ["middle", 0.5],
    ["last", 0.99],
  ])("counts a block with one character changed (%s part of the payload) as no review", (_where, at) => {
    const { block } = encoded();
    const start = block.lastIndexOf(" ", block.length - 6) + 1;
    const end = block.indexOf(" -->");
    const i = start + Math.floor((end - start - 3) * at);
    const tampered = block.slice(0, i) + (block[i] === "A" ? "B" : "A") + block.slice(i + 1);
    const result = decodeReviewedBlock(comment(tampered));
    expect(result).toMatchObject({ code: expect.stringMatching(/^(garbled|altered)$/), problem: expect.any(String) });
  });

  it("counts a plan edited inside the block and re-encoded without fixing the digest as no review", () => {
    const { block } = encoded();
    const original = payloadJson(block);
    const edited = original.replace('"action":"update"', '"action":"delete"');
    expect(edited).not.toBe(original);
    expect(decodeReviewedBlock(comment(reencode(edited, original)))).toEqual({
      code: "altered",
      problem: "The reviewed plan in the comment fails its integrity check: it was edited after sitesync wrote it.",
    });
  });

  it("counts a plan edited with a fixed digest but not a fixed plan hash as no review", () => {
    const original = payloadJson(encoded().block);
    const edited = original.replace('"domain":"new.example.com"', '"domain":"evil.example.com"');
    expect(edited).not.toBe(original);
    expect(decodeReviewedBlock(comment(reencode(edited, edited)))).toMatchObject({
      code: "invalid",
      problem: expect.stringContaining("hash"),
    });
  });

  it("counts a block whose plan fails the plan schema as no review", () => {
    const { hash: _h, ...rest } = { ...reviewedPlan, changes: [{ kind: "website", action: "rename", domain: "x.example.com" }] };
    const bad = { ...rest, hash: planHash(rest as unknown as Omit<Plan, "hash">) };
    const json = JSON.stringify({ format: "sitesync-reviewed", version: 1, headSha: HEAD, config: "sitesync.yaml", plan: bad });
    expect(decodeReviewedBlock(comment(reencode(json, json)))).toMatchObject({
      code: "invalid",
      problem: expect.stringContaining("/changes/0"),
    });
  });

  it.each([
    ["no block", "### sitesync plan\n\nNo changes.", "missing"],
    ["an empty body", undefined, "missing"],
    ["an unclosed block", "<!-- sitesync-reviewed v1 sha256=00 AAAA", "garbled"],
    ["a payload that is not base64", `<!-- sitesync-reviewed v1 sha256=${"0".repeat(64)} not*base64! -->`, "garbled"],
    ["a payload that is not brotli", `<!-- sitesync-reviewed v1 sha256=${"0".repeat(64)} aGVsbG8gd29ybGQ= -->`, "garbled"],
    ["a block of another format version", `<!-- sitesync-reviewed v9 sha256=${"0".repeat(64)} AAAA -->`, "invalid"],
  ])("counts %s as no review", (_what, body, code) => {
    expect(decodeReviewedBlock(body)).toMatchObject({ code, problem: expect.any(String) });
  });

  it("trusts neither block of a comment that holds two", () => {
    const { block } = encoded();
    expect(decodeReviewedBlock(comment(block) + block)).toMatchObject({
      code: "garbled",
      problem: expect.stringContaining("more than one"),
    });
  });

  it("refuses a payload that would decompress into a memory bomb", () => {
    const bomb = brotliCompressSync(Buffer.alloc(20 * 1024 * 1024, 32), { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
    const body = `<!-- sitesync-reviewed v1 sha256=${"0".repeat(64)} ${bomb.toString("base64")} -->`;
    expect(decodeReviewedBlock(body)).toMatchObject({ code: "garbled", problem: expect.stringContaining("decompress to over") });
  });

  it("says so when the last review was for another head commit or config file", () => {
    const body = comment(encoded().block);
    const newer = "fedcba9876543210fedcba9876543210fedcba98";
    expect(decodeReviewedBlock(body, { headSha: newer })).toEqual({
      code: "stale",
      problem:
        "The last reviewed plan was made for commit 0123456789ab, not for the pull request's head fedcba987654: " +
        "the last push was never planned and reviewed.",
    });
    expect(decodeReviewedBlock(body, { config: "other.yaml" })).toMatchObject({ code: "other-config" });
  });
});

describe("the block's size in a 65,536-character comment", () => {
  const many = (n: number) =>
    planOf(
      Array.from({ length: n }, (_, i) => ({
        domain: `site-${i}.example.com`,
        state: "present" as const,
        privacy: 1 as const,
        exclude_ips: ["203.0.113.7"],
      })),
      n,
    );

  it("stores a plan of 3,000 changes within the budget, leaving room for the visible plan", () => {
    const big = many(3000);
    expect(big.changes).toHaveLength(3000);
    const { block, length } = encoded(big);
    expect(length).toBeLessThanOrEqual(REVIEWED_BLOCK_BUDGET);
    expect(COMMENT_LIMIT - length).toBeGreaterThan(5000);
    const back = decodeReviewedBlock(comment(block));
    expect("plan" in back && back.plan.changes).toHaveLength(3000);
  });

  it("returns a clear problem, never a truncated block, when the block would not fit", () => {
    const result = encodeReviewedBlock(many(1500), { headSha: HEAD, config: "sitesync.yaml" }, 10_000);
    expect(result).not.toHaveProperty("block");
    expect(result).toMatchObject({
      code: "too-large",
      problem: expect.stringMatching(
        /^The plan's 1500 changes are too many to store for review in a pull-request comment \(\d+ characters, over 10000\)/,
      ),
    });
  });
});
