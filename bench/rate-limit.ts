/**
 * Scenario 1 (DESIGN §8, rate-limit bound): plan and apply creates, updates and deletes against an account
 * behind a throttle with the real headers. The wall time should stay within 1.1× of requests ÷ rate, with
 * no 429. The client is told the window (`rateWindowMs`): the headers give the count but not the window.
 */
import { apply, createClient, plan, readLive } from "../src/index.ts";
import { countRequests, describeCounts, describeMinimum, isMinimal, listCalls, type RequestCounts } from "./count-requests.ts";
import { type Row, seconds } from "./rows.ts";
import { startSandboxProcess } from "./sandbox-process.ts";
import { writeConfig } from "./write-config.ts";

export interface RateLimitSizes {
  websites: number;
  creates: number;
  updates: number;
  deletes: number;
  /** The sandbox throttle: `limit` requests per `windowMs`. */
  limit: number;
  windowMs: number;
  latencyMs: number;
}

export interface RateLimitResult {
  rows: Row[];
  wallMs: number;
  counts: RequestCounts;
}

export async function rateLimitScenario(sizes: RateLimitSizes): Promise<RateLimitResult> {
  const sandbox = await startSandboxProcess({
    seed: sizes.websites,
    rateLimit: sizes.limit,
    rateWindowMs: sizes.windowMs,
    latencyMs: sizes.latencyMs,
  });
  let written: Awaited<ReturnType<typeof writeConfig>> | undefined;
  try {
    written = await writeConfig(configFor(await sandbox.websites(), sizes));
    const { config } = written;
    const client = createClient({ websitesUrl: sandbox.url, apiKey: sandbox.apiKey, rateWindowMs: sizes.windowMs });
    // The throttle's first window opens at the first request, so the clock starts with a fresh budget.
    const started = performance.now();
    const live = await readLive(client, config);
    const planned = plan(config, live, { configFile: written.file, configDigest: config.digest, maxDeletes: sizes.deletes });
    const { summary } = planned;
    if (
      planned.refusals.length > 0 ||
      summary.create !== sizes.creates ||
      summary.update !== sizes.updates ||
      summary.delete !== sizes.deletes
    ) {
      throw new Error(`rate-limit scenario planned ${JSON.stringify(summary)} (refusals: ${planned.refusals.length})`);
    }
    const result = await apply(planned, client, { passwordOf: () => undefined });
    const wallMs = performance.now() - started;
    if (result.counts.failed > 0 || result.counts.skipped > 0) throw new Error(`rate-limit scenario: ${JSON.stringify(result.counts)}`);

    const counts = countRequests(await sandbox.requests());
    return { rows: rows(sizes, wallMs, counts), wallMs, counts };
  } finally {
    written?.remove();
    await sandbox.close();
  }
}

function rows(sizes: RateLimitSizes, wallMs: number, counts: RequestCounts): Row[] {
  const idealMs = (counts.accepted / sizes.limit) * sizes.windowMs;
  const ratio = wallMs / idealMs;
  const window = `${sizes.limit}/${sizes.windowMs / 1000}s`;
  const minimum = { list: listCalls(sizes.websites), writes: sizes.creates + sizes.updates + sizes.deletes };
  const label = `${sizes.websites} sites, ${sizes.creates}c/${sizes.updates}u/${sizes.deletes}d`;
  return [
    {
      scenario: `1 rate limit ${window}: wall time (${label})`,
      measured: `${seconds(wallMs)} for ${counts.accepted} requests`,
      bound: `≤ 1.1 × ${seconds(idealMs)} (requests ÷ rate)`,
      ratio,
      ok: ratio <= 1.1,
      kind: "bound",
    },
    {
      scenario: "1 rate limit: 429 answers received",
      measured: String(counts.throttled),
      bound: "0",
      ok: counts.throttled === 0,
      kind: "bound",
    },
    {
      scenario: `4 request count: scenario 1 plan+apply`,
      measured: describeCounts(counts),
      bound: describeMinimum(minimum),
      ok: isMinimal(counts, minimum),
      kind: "count",
    },
  ];
}

interface SeededSite {
  domain: string;
  email: number | null;
}

/** Updates flip `email` of the first sites, deletes are tombstones for the last ones, creates are new names. */
function configFor(live: readonly SeededSite[], sizes: RateLimitSizes) {
  if (sizes.updates + sizes.deletes > live.length) throw new Error("rate-limit scenario: more changes than websites");
  const updates = live.slice(0, sizes.updates).map((site) => ({ domain: site.domain, email: 1 - (site.email ?? 0) }));
  const deletes = live.slice(live.length - sizes.deletes).map((site) => ({ domain: site.domain, state: "absent" }));
  const creates = Array.from({ length: sizes.creates }, (_, i) => ({
    domain: `new-${String(i + 1).padStart(5, "0")}.bench.example.com`,
    privacy: "private",
    exclude_ips: ["203.0.113.7", "198.51.100.0/24"],
  }));
  return { policy: { max_deletes: sizes.deletes }, websites: [...creates, ...updates, ...deletes] };
}
