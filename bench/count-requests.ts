/** What the sandbox saw, sorted into the request kinds of DESIGN §8's minimum. */
import type { SandboxRequest } from "../src/sandbox/index.ts";

export interface RequestCounts {
  /** GET on the /websites and /projects collections (listing pages). */
  list: number;
  /** POST, PUT, PATCH, DELETE. */
  writes: number;
  /** Any other GET: a per-site lookup while planning would show here. */
  otherGets: number;
  /** Answers 429, counted apart: a refused request did no work and the throttle did not count it. */
  throttled: number;
  /** Everything that was answered other than 429 (what the rate limit counted). */
  accepted: number;
}

const LIST_PATH = /^\/api\/v1\/(websites|projects)\/?$/;
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function countRequests(requests: readonly SandboxRequest[]): RequestCounts {
  const counts: RequestCounts = { list: 0, writes: 0, otherGets: 0, throttled: 0, accepted: 0 };
  for (const request of requests) {
    if (request.status === 429) {
      counts.throttled++;
      continue;
    }
    counts.accepted++;
    if (WRITES.has(request.method)) counts.writes++;
    else if (request.method === "GET" && LIST_PATH.test(request.path)) counts.list++;
    else if (request.method === "GET") counts.otherGets++;
  }
  return counts;
}

/** The listing calls DESIGN §8 allows: one per 100 items, and page 1 even of an empty account. */
export function listCalls(items: number): number {
  return Math.max(1, Math.ceil(items / 100));
}

export interface Minimum {
  list: number;
  writes: number;
}

/** "20 list + 350 writes, 0 other GETs" */
export function describeCounts(counts: RequestCounts): string {
  return `${counts.list} list + ${counts.writes} writes, ${counts.otherGets} other GETs`;
}

export function describeMinimum(minimum: Minimum): string {
  return `= ${minimum.list} list + ${minimum.writes} writes, 0 other GETs`;
}

export function isMinimal(counts: RequestCounts, minimum: Minimum): boolean {
  return counts.list === minimum.list && counts.writes === minimum.writes && counts.otherGets === 0;
}
