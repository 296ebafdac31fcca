// The Action's entry point (action.yml `runs.main`, bundled to dist/index.js by scripts/build-action.ts).
import { run } from "./run.ts";

await run();
