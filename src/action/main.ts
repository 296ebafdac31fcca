// The Action's entry point (action.yml `runs.main`, bundled to dist/index.js by scripts/build-action.ts).
// This is the edge: the environment is read here, once, and passed down.
import { runAction } from "./action.ts";

await runAction({ ...process.env });
