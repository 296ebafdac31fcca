/**
 * Scenario 2 (DESIGN §8, latency bound): read every website of a large account behind a slow link, without
 * a rate limit. The client reads page 1, then the other pages `concurrency` at a time, so the floor is
 * latency × (1 + ⌈(pages − 1) ÷ concurrency⌉). Two plain fetch loops give context: one page after another,
 * as a user would script it (what the concurrency buys), and the same concurrency without sitesync's
 * checks and decoding (what this machine and the sandbox allow at best).
 */
import pLimit from "p-limit";
import { createClient } from "../src/index.ts";
import { median, millis, type Row } from "./rows.ts";
import { type SandboxProcess, startSandboxProcess } from "./sandbox-process.ts";

export interface LatencySizes {
  websites: number;
  latencyMs: number;
  concurrency: number;
  /** Timed reads of each kind; the median is reported. */
  runs: number;
}

export async function latencyScenario(sizes: LatencySizes): Promise<Row[]> {
  const sandbox = await startSandboxProcess({ seed: sizes.websites, latencyMs: sizes.latencyMs, rateLimit: 0 });
  try {
    const clientMs: number[] = [];
    for (let run = 0; run < sizes.runs; run++) clientMs.push(await timedClientRead(sandbox, sizes));
    const sequentialMs: number[] = [];
    const plainMs: number[] = [];
    for (let run = 0; run < sizes.runs; run++) {
      sequentialMs.push(await timedPlainRead(sandbox, sizes.websites, 1));
      plainMs.push(await timedPlainRead(sandbox, sizes.websites, sizes.concurrency));
    }
    return rows(sizes, clientMs, sequentialMs, plainMs);
  } finally {
    await sandbox.close();
  }
}

/** `readAll` with a fresh client (a fresh scheduler; the process's connection pool is shared, as in any run). */
async function timedClientRead(sandbox: SandboxProcess, sizes: LatencySizes): Promise<number> {
  const client = createClient({ websitesUrl: sandbox.url, apiKey: sandbox.apiKey, concurrency: sizes.concurrency });
  const started = performance.now();
  const websites = await client.websites.readAll();
  const ms = performance.now() - started;
  if (websites.length !== sizes.websites) throw new Error(`latency scenario: read ${websites.length} of ${sizes.websites}`);
  return ms;
}

/** Plain fetch: page 1, then the pages `meta.last_page` names, `concurrency` at a time (1: one after another). */
async function timedPlainRead(sandbox: SandboxProcess, expected: number, concurrency: number): Promise<number> {
  const page = async (n: number) => {
    const url = `${sandbox.url}/api/v1/websites?per_page=100&sort_by=id&sort=asc&page=${n}`;
    const response = await fetch(url, { headers: { Authorization: `Bearer ${sandbox.apiKey}`, Accept: "application/json" } });
    return (await response.json()) as { data: unknown[]; meta: { last_page: number } };
  };
  const started = performance.now();
  const first = await page(1);
  const limit = pLimit(concurrency);
  const rest = await Promise.all(Array.from({ length: first.meta.last_page - 1 }, (_, i) => limit(() => page(i + 2))));
  const ms = performance.now() - started;
  const count = [first, ...rest].reduce((sum, p) => sum + p.data.length, 0);
  if (count !== expected) throw new Error(`latency scenario (plain fetch, concurrency ${concurrency}): read ${count} of ${expected}`);
  return ms;
}

function rows(sizes: LatencySizes, clientMs: number[], sequentialMs: number[], plainMs: number[]): Row[] {
  const pages = Math.ceil(sizes.websites / 100);
  const rounds = 1 + Math.ceil((pages - 1) / sizes.concurrency);
  const floorMs = sizes.latencyMs * rounds;
  const client = median(clientMs);
  const sequential = median(sequentialMs);
  const plain = median(plainMs);
  const runs = (values: number[]) => values.map((v) => Math.round(v)).join(", ");
  return [
    {
      scenario: `2 latency ${sizes.latencyMs} ms, concurrency ${sizes.concurrency}: readAll of ${sizes.websites} sites`,
      measured: `${millis(client)} median (${runs(clientMs)})`,
      bound: `≤ 1.2 × ${millis(floorMs)} (${sizes.latencyMs} ms × (1 + ⌈${pages - 1}/${sizes.concurrency}⌉))`,
      ratio: client / floorMs,
      ok: client / floorMs <= 1.2,
      kind: "bound",
    },
    {
      scenario: "2 latency: plain sequential fetch loop, same read",
      measured: `${millis(sequential)} median (${runs(sequentialMs)})`,
      bound: "context: readAll ÷ this",
      ratio: client / sequential,
      ok: true,
      kind: "info",
    },
    {
      scenario: `2 latency: plain fetch, ${sizes.concurrency} at a time, no checks or decoding`,
      measured: `${millis(plain)} median (${runs(plainMs)})`,
      bound: "context: readAll ÷ this",
      ratio: client / plain,
      ok: true,
      kind: "info",
    },
  ];
}
