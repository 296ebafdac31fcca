/**
 * A context floor of the loading rows: a bare read of an account, alone in a fresh process. Every page of the
 * websites listing (per_page 100) with Node's own `fetch`, 4 at a time, each body `JSON.parse`d and kept; no
 * scheduler, no checks, no decoding. What any plan of that account pays before it compares anything. Prints
 * one JSON line.
 *
 *   node bench/read-floor-child.ts '<websites URL>' '<API key>' '<number of websites>'
 */
const [url = "", key = "", count = "0"] = process.argv.slice(2);
const pages = Math.ceil(Number(count) / 100);
const headers = { Authorization: `Bearer ${key}`, Accept: "application/json" };
const kept: unknown[] = [];
const cpuBefore = process.cpuUsage();
let next = 1;
async function reader(): Promise<void> {
  while (next <= pages) {
    const page = next++;
    const response = await fetch(`${url}/api/v1/websites?page=${page}&per_page=100`, { headers });
    if (!response.ok) throw new Error(`page ${page}: HTTP ${response.status}`);
    kept.push(JSON.parse(await response.text()));
  }
}
await Promise.all([reader(), reader(), reader(), reader()]);
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(
  `${JSON.stringify({ commandCpuMs: (cpu.user + cpu.system) / 1000, maxRssMb: process.resourceUsage().maxRSS / 1024, kept: kept.length })}\n`,
);
