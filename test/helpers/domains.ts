import type { Sandbox } from "../../src/sandbox/index.ts";

/** The domains a sandbox's account holds, sorted: what a test compares after a run. */
export function domainsOf(sandbox: Sandbox): string[] {
  return sandbox.store
    .websites()
    .map((w) => w.domain)
    .sort();
}
