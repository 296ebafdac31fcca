#!/usr/bin/env node
// The CLI runs its TypeScript sources directly: Node >= 22.18 strips types natively, and the project pins
// Node 24 for its own scripts (DESIGN §10), so there is no build step after `npm ci`.
// This is the edge: the environment is read here, once, and passed down.
import { runCli } from "../src/cli/main.ts";

process.exitCode = await runCli(process.argv.slice(2), { env: { ...process.env } });
