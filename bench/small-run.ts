/**
 * Scenario 4, small run (DESIGN §8, minimum requests): `sitesync apply` through the CLI (in this process)
 * on an account with websites and projects, creates with and without favorite, updates and deletes. The
 * sandbox must see exactly ⌈websites/100⌉ + ⌈projects/100⌉ list calls and one write per create (two with
 * favorite), update and delete: no per-site GET while planning.
 */
import { createIo, type Io } from "../src/cli/_io.ts";
import { runCli } from "../src/cli/main.ts";
import { startSandbox } from "../src/index.ts";
import { countRequests, describeCounts, describeMinimum, isMinimal, listCalls } from "./count-requests.ts";
import type { Row } from "./rows.ts";
import { writeConfig } from "./write-config.ts";

const SIZES = { websites: 250, projects: 30, creates: 5, favorites: 2, updates: 5, deletes: 5, projectDeletes: 3 };

export async function smallRunScenario(): Promise<Row[]> {
  const s = SIZES;
  const sandbox = await startSandbox({ seed: s.websites, seedProjects: s.projects });
  const written = await writeConfig(
    configFor(
      sandbox.store.websites(),
      sandbox.store.projects().map((p) => p.project),
    ),
  );
  const env = { SITESYNC_API_KEY: sandbox.apiKey };
  try {
    const argv = ["-c", written.file, "--websites-url", sandbox.url, "--projects-url", sandbox.url];
    const applied = await runCli(["apply", "--auto-approve", ...argv], { env, io: silentIo() });
    const counts = countRequests(sandbox.requests);
    // Then a plan must show nothing left to do, or the counts above measured a run that did not finish.
    const again = await runCli(["plan", "--detailed-exitcode", ...argv], { env, io: silentIo() });
    if (applied !== 0 || again !== 0) throw new Error(`small run: apply exited ${applied}, the plan after it ${again}`);

    const minimum = {
      list: listCalls(s.websites) + listCalls(s.projects),
      writes: s.creates + s.favorites + s.updates + s.deletes + s.projectDeletes,
    };
    const label = `${s.websites} sites + ${s.projects} projects, ${s.creates}c (${s.favorites} favorite)/${s.updates}u/${s.deletes}d + ${s.projectDeletes} project d`;
    return [
      {
        scenario: `4 request count: CLI apply, ${label}`,
        measured: describeCounts(counts),
        bound: describeMinimum(minimum),
        ok: isMinimal(counts, minimum),
        kind: "count",
      },
    ];
  } finally {
    written.remove();
    await sandbox.close();
  }
}

function configFor(live: readonly { domain: string; email: number | null }[], projects: readonly string[]) {
  const s = SIZES;
  const creates = Array.from({ length: s.creates }, (_, i) => ({
    domain: `small-${i + 1}.bench.example.com`,
    ...(i < s.favorites ? { favorite: true } : {}),
  }));
  const updates = live.slice(0, s.updates).map((site) => ({ domain: site.domain, email: 1 - (site.email ?? 0) }));
  const deletes = live.slice(live.length - s.deletes).map((site) => ({ domain: site.domain, state: "absent" }));
  return {
    policy: { max_deletes: s.deletes + s.projectDeletes },
    websites: [...creates, ...updates, ...deletes],
    projects: projects.slice(0, s.projectDeletes).map((project) => ({ project, state: "absent" })),
  };
}

/** The CLI's output is not what is measured here: keep it off the bench table. */
function silentIo(): Io {
  return createIo({}, { out: () => {}, err: () => {} });
}
