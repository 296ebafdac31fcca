/**
 * Scenario 1b (DESIGN §6 and §8): a sandbox throttled at `limit` requests per `windowMs`, and a client told
 * nothing about the window (no `--rate-window`): it must learn the window with at most one 429 and pace
 * within 1.1× of requests ÷ rate. The requests are whole reads of a small account, one after the other.
 */
import { createClient } from "../src/index.ts";
import { countRequests, listCalls } from "./count-requests.ts";
import { type Row, seconds } from "./rows.ts";
import { startSandboxProcess } from "./sandbox-process.ts";

export interface LearnedWindowSizes {
  /** Websites in the account: each read is ceil(websites / 100) list requests. */
  websites: number;
  reads: number;
  limit: number;
  windowMs: number;
  latencyMs: number;
}

export async function learnedWindowScenario(sizes: LearnedWindowSizes): Promise<Row[]> {
  const sandbox = await startSandboxProcess({
    seed: sizes.websites,
    rateLimit: sizes.limit,
    rateWindowMs: sizes.windowMs,
    latencyMs: sizes.latencyMs,
  });
  try {
    const learned: string[] = [];
    const client = createClient({
      websitesUrl: sandbox.url,
      apiKey: sandbox.apiKey,
      onRateLearned: ({ limit, windowMs }) => learned.push(`${limit} per ${windowMs / 1000} s`),
    });
    const started = performance.now();
    for (let read = 0; read < sizes.reads; read++) {
      const sites = await client.websites.readAll();
      if (sites.length !== sizes.websites) throw new Error(`learned-window scenario read ${sites.length} websites`);
    }
    const wallMs = performance.now() - started;
    const counts = countRequests(await sandbox.requests());
    if (counts.accepted !== sizes.reads * listCalls(sizes.websites)) throw new Error(`learned-window scenario: ${JSON.stringify(counts)}`);
    const idealMs = (counts.accepted / sizes.limit) * sizes.windowMs;
    const ratio = wallMs / idealMs;
    const window = `${sizes.limit}/${sizes.windowMs / 1000}s`;
    return [
      {
        scenario: `1b rate limit ${window}, no --rate-window: wall time (${sizes.reads} reads of ${sizes.websites} sites)`,
        measured: `${seconds(wallMs)} for ${counts.accepted} requests; learned ${learned.join(", ") || "nothing"}`,
        bound: `≤ 1.1 × ${seconds(idealMs)} (requests ÷ rate)`,
        ratio,
        ok: ratio <= 1.1,
        kind: "bound",
      },
      {
        scenario: "1b learned window: 429 answers received",
        measured: String(counts.throttled),
        bound: "≤ 1",
        ok: counts.throttled <= 1,
        kind: "bound",
      },
    ];
  } finally {
    await sandbox.close();
  }
}
