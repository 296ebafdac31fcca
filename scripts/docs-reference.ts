/**
 * Writes docs/reference.md from the settings table and the CLI's commands (scripts/docs/reference.ts).
 * A test fails when the file differs from what this writes.
 *
 *   npm run docs-reference
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { referenceMarkdown } from "./docs/reference.ts";

const actionYml = readFileSync(new URL("../action.yml", import.meta.url), "utf8");
writeFileSync(fileURLToPath(new URL("../docs/reference.md", import.meta.url)), await referenceMarkdown(actionYml));
console.log("wrote docs/reference.md from the settings table and the CLI's commands");
