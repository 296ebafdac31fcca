/**
 * Scenario 3's measuring process, run by plan-cpu.ts in a fresh process so that nothing else sits in its
 * memory. It builds `size` desired and `size` live websites in memory, plans once, then `runs` more times,
 * timed. Prints one JSON line. With `runs` 0 the peak memory is that of one plan, as a CLI run makes it;
 * repeated plans in one process leave garbage that V8 collects lazily, so they would overstate it.
 *
 *   node bench/plan-cpu-child.ts <size> <runs>
 */
import { DEFAULT_POLICY, type DesiredWebsite, type LiveWebsite, plan } from "../src/index.ts";

const size = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 5);
const MB = 1024 * 1024;

const rssAtStart = process.memoryUsage().rss;
const { desired, live } = inputs(size);
const rssWithInputs = process.memoryUsage().rss;

const options = { configFile: "bench.yaml", configDigest: "0".repeat(64) };
const desiredState = { websites: desired, policy: DEFAULT_POLICY };
let summary = plan(desiredState, { websites: live }, options).summary; // also the warm-up of the timed runs
const ms: number[] = [];
for (let run = 0; run < runs; run++) {
  const started = performance.now();
  summary = plan(desiredState, { websites: live }, options).summary;
  ms.push(performance.now() - started);
}

process.stdout.write(
  `${JSON.stringify({
    size,
    ms,
    summary,
    rssAtStartMb: rssAtStart / MB,
    rssWithInputsMb: rssWithInputs / MB,
    // ru_maxrss (KiB on Linux): the process's peak resident set, inputs and Node itself included.
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  })}\n`,
);

/**
 * A drifted account: 95% of the desired sites exist live (1 in 20 of them with a field that differs), 5% are
 * new, and 5% of the live sites are not listed (unmanaged: prune is off). A third carry IP exclusions.
 */
function inputs(count: number): { desired: DesiredWebsite[]; live: LiveWebsite[] } {
  const live: LiveWebsite[] = [];
  const desired: DesiredWebsite[] = [];
  const unlisted = Math.floor(count * 0.05);
  for (let i = 0; i < count; i++) {
    const domain = `site-${String(i).padStart(6, "0")}.example.com`;
    const ips = i % 3 === 0 ? [`203.0.113.${i % 256}`, "198.51.100.0/24"] : [];
    live.push({
      id: i + 1,
      domain,
      privacy: (i % 7 === 0 ? 1 : 0) as 0 | 1,
      email: i % 2,
      password: false,
      exclude_bots: 1,
      exclude_ips: ips,
      favorite: i % 10 === 0,
      favorited_at: i % 10 === 0 ? "2024-01-01 00:00:00" : null,
      created_at: "2024-01-01T00:00:00.000000Z",
      updated_at: "2024-01-02T00:00:00.000000Z",
    });
    if (i < unlisted) continue;
    const drift = i % 20 === 0;
    desired.push({
      domain,
      state: "present",
      privacy: (i % 7 === 0 ? 1 : 0) as 0 | 1,
      email: drift ? 1 - (i % 2) : i % 2,
      exclude_bots: 1,
      exclude_ips: [...ips].reverse(),
      favorite: i % 10 === 0,
    });
  }
  for (let i = 0; i < unlisted; i++) {
    desired.push({ domain: `new-${String(i).padStart(6, "0")}.example.com`, state: "present", privacy: 0, email: 0, exclude_bots: 1 });
  }
  return { desired, live };
}
