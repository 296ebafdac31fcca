/**
 * Writes action.yml's `inputs:` from the settings table (src/run/settings.ts), keeping the rest of the file.
 * A test fails when action.yml differs from what this writes.
 *
 *   npm run action-yml
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { withTableInputs } from "../src/action/action-yml.ts";

const file = fileURLToPath(new URL("../action.yml", import.meta.url));
writeFileSync(file, withTableInputs(readFileSync(file, "utf8")));
console.log("wrote action.yml's inputs from the settings table");
