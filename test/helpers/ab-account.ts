/**
 * An account for partial plans (`--target a*`) and saved plans: websites named a… and b…, two strays the
 * config does not list, and a config under prune in which every listed site drifts (privacy) and a3 and b2
 * are new. Used by test/plan/selection.test.ts and test/show/show.test.ts.
 */
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { HEADER } from "./cli.ts";

export function startAbSandbox(): Promise<Sandbox> {
  return startSandbox({
    rateLimit: 0,
    websites: [
      { domain: "a1.example.com", privacy: 0 },
      { domain: "a2.example.com", privacy: 0 },
      { domain: "b1.example.com", privacy: 0 },
      { domain: "a-stray.example.com" },
      { domain: "b-stray.example.com" },
    ],
  });
}

export const AB_CONFIG =
  HEADER +
  `policy:
  prune: true
websites:
  - domain: a1.example.com
    privacy: private
  - domain: a2.example.com
    privacy: private
  - domain: a3.example.com
  - domain: b1.example.com
    privacy: private
  - domain: b2.example.com
`;
