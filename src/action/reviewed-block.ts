/**
 * The reviewed plan travels with the review (DESIGN §7): the plan job appends it to its sticky
 * pull-request comment as a hidden block, and the merge job reads it back to apply only what was reviewed.
 *
 *     <!-- sitesync-reviewed v1 sha256=<digest of the JSON> <base64 of the brotli-compressed JSON> -->
 *
 * The JSON holds the plan (never a secret: passwords are `(sensitive)`), the head commit and the config it
 * was made for. Base64 has no `-` nor `>`, so the payload can never end the HTML comment early.
 *
 * The digest detects a block that was edited or damaged; it is no defence against a forger, who can
 * recompute it. What stops a forger is that only a comment written by the Action's own identity is read,
 * and that the merge applies only changes a fresh plan calls for too (`intersectReviewed`).
 */
import { createHash } from "node:crypto";
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import type { Plan } from "../plan/types.ts";
import { planDataProblem } from "../run/plan-file.ts";

/** GitHub refuses a comment over 65,536 characters; the block alone may use this much of it. */
export const REVIEWED_BLOCK_BUDGET = 60_000;

const OPEN = "<!-- sitesync-reviewed ";
const CLOSE = "-->";
/**
 * Stands where the block would be when the plan was too large to carry, so that the merge says why it found
 * no reviewed plan and what to do, instead of "no reviewed plan". It approves nothing, forged or not.
 */
const OMITTED = "<!-- sitesync-reviewed-omitted too-large -->";
const VERSION = "v1";
/**
 * Decompressed size cap: a comment must not inflate into a memory bomb (DESIGN §12). A genuine plan compresses
 * about 25:1 (every change holds a fingerprint), so a block that fits a comment never comes near it.
 */
const MAX_JSON_BYTES = 16 * 1024 * 1024;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const DIGEST = /^sha256=([0-9a-f]{64})$/;
/** A git commit id: SHA-1, or SHA-256 in repositories that use it. */
const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** What the merge job needs from a review: the plan shown, and what it was made for. */
export interface ReviewedPlan {
  plan: Plan;
  /** The pull request's head commit the plan was made for. */
  headSha: string;
  /** The config file the plan was made from, as the workflow names it (one comment per config). */
  config: string;
}

type BlockProblemCode = "missing" | "garbled" | "altered" | "invalid" | "stale" | "other-config" | "too-large";

/** Why there is no usable review: it counts as no review at all. */
export interface BlockProblem {
  code: BlockProblemCode;
  problem: string;
}

export interface EncodedBlock {
  /** Append to the comment body as it is (it starts with a newline). */
  block: string;
  /** `block.length`: the comment composer cuts the visible plan to leave this much room, never the block. */
  length: number;
}

/**
 * The hidden block for a plan, or a problem when the plan is not a valid plan or its block would take more
 * than `budget` characters (a very large plan: review it in parts with `--target`, or apply it deliberately).
 */
export function encodeReviewedBlock(
  plan: Plan,
  made: { headSha: string; config: string },
  budget = REVIEWED_BLOCK_BUDGET,
): EncodedBlock | BlockProblem {
  const invalid = planDataProblem(plan);
  if (invalid) return { code: "invalid", problem: `The plan cannot be stored for review: ${invalid}.` };
  if (!COMMIT.test(made.headSha))
    return { code: "invalid", problem: `The plan cannot be stored for review: "${made.headSha}" is not a commit id.` };
  const json = JSON.stringify({ format: "sitesync-reviewed", version: 1, headSha: made.headSha, config: made.config, plan });
  const payload = brotliCompressSync(json, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(json),
    },
  }).toString("base64");
  const block = `\n${OPEN}${VERSION} sha256=${sha256(json)} ${payload} ${CLOSE}\n`;
  if (block.length > budget) {
    return {
      code: "too-large",
      problem:
        `The plan's ${plan.changes.length} changes are too many to store for review in a pull-request comment ` +
        `(${block.length} characters, over ${budget}): the merge will apply nothing of it. Split the change into smaller pull requests.`,
    };
  }
  return { block, length: block.length };
}

/** What stands in a comment for a plan too large to carry (it starts with a newline, as a block does). */
export function omittedBlock(): string {
  return `\n${OMITTED}\n`;
}

/** What of the reviewed plan a line of a comment holds: its block, the line saying it was omitted, or none. */
export function reviewedLineKind(line: string): "block" | "omitted" | undefined {
  if (line.startsWith(OPEN)) return "block";
  return line === OMITTED ? "omitted" : undefined;
}

/**
 * The reviewed plan held in a comment body, or why there is none usable: no block, more than one, a garbled
 * or edited block, a plan that fails the plan schema or its hash, or (when `expected` is given) a plan made
 * for another head commit or config file. Every problem means "no review".
 */
export function decodeReviewedBlock(
  body: string | null | undefined,
  expected?: { headSha?: string; config?: string },
): ReviewedPlan | BlockProblem {
  const found = findBlock(body ?? "");
  if ("problem" in found) return found;
  const [version, digest, payload, ...extra] = found.inner.split(" ").filter(Boolean);
  if (version !== VERSION)
    return { code: "invalid", problem: `The reviewed plan was stored by another version of sitesync (${version ?? "none"}).` };
  const expectedDigest = DIGEST.exec(digest ?? "")?.[1];
  if (!expectedDigest || !payload || extra.length > 0 || !BASE64.test(payload)) return garbled("its block is not in the expected form");
  let json: string;
  try {
    json = brotliDecompressSync(Buffer.from(payload, "base64"), { maxOutputLength: MAX_JSON_BYTES }).toString("utf8");
  } catch (error) {
    return garbled(error instanceof RangeError ? `it would decompress to over ${MAX_JSON_BYTES} bytes` : "it does not decompress");
  }
  if (sha256(json) !== expectedDigest) {
    return {
      code: "altered",
      problem: "The reviewed plan in the comment fails its integrity check: it was edited after sitesync wrote it.",
    };
  }
  const reviewed = envelope(json);
  if ("problem" in reviewed) return reviewed;
  return matchesExpected(reviewed, expected) ?? reviewed;
}

function findBlock(body: string): { inner: string } | BlockProblem {
  const start = body.indexOf(OPEN);
  if (start < 0 && body.includes(OMITTED)) {
    return {
      code: "too-large",
      problem:
        "The plan was too large to carry for review in the pull-request comment, so nothing of it was reviewed. " +
        "Split the change into smaller pull requests (or narrow it with the target input), or apply it by hand with apply-unreviewed: true.",
    };
  }
  if (start < 0) return { code: "missing", problem: "The comment holds no reviewed plan." };
  // Two blocks: one of them was not written by sitesync (say, quoted from elsewhere); trust neither.
  if (body.indexOf(OPEN, start + OPEN.length) >= 0) return garbled("the comment holds more than one reviewed plan");
  const end = body.indexOf(CLOSE, start + OPEN.length);
  if (end < 0) return garbled("its block is not closed");
  return { inner: body.slice(start + OPEN.length, end) };
}

/** The envelope's members, each checked; the plan against the plan schema and its own hash. */
function envelope(json: string): ReviewedPlan | BlockProblem {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return garbled("it is not JSON");
  }
  const e = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
  const sha = typeof e.headSha === "string" && COMMIT.test(e.headSha);
  if (e.format !== "sitesync-reviewed" || e.version !== 1 || !sha || typeof e.config !== "string") {
    return { code: "invalid", problem: "The reviewed plan in the comment was not stored by this version of sitesync." };
  }
  const invalid = planDataProblem(e.plan);
  if (invalid) return { code: "invalid", problem: `The reviewed plan in the comment is unusable: ${invalid}.` };
  return { plan: e.plan as Plan, headSha: e.headSha as string, config: e.config };
}

function matchesExpected(reviewed: ReviewedPlan, expected?: { headSha?: string; config?: string }): BlockProblem | undefined {
  if (expected?.config !== undefined && reviewed.config !== expected.config) {
    return { code: "other-config", problem: `The reviewed plan is for ${reviewed.config}, not ${expected.config}.` };
  }
  if (expected?.headSha !== undefined && reviewed.headSha !== expected.headSha) {
    return {
      code: "stale",
      problem:
        `The last reviewed plan was made for commit ${reviewed.headSha.slice(0, 12)}, not for the pull request's ` +
        `head ${expected.headSha.slice(0, 12)}: the last push was never planned and reviewed.`,
    };
  }
  return undefined;
}

function garbled(why: string): BlockProblem {
  return { code: "garbled", problem: `The reviewed plan in the comment is damaged: ${why}.` };
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
