/**
 * action.yml's `inputs:`, derived from the settings table (run/settings.ts): every row with an input, in the
 * table's order, with its description and default. `node scripts/action-yml.ts` writes them into action.yml;
 * a test fails when the file differs (action-yml.test.ts, beside it), so an input added, renamed or
 * re-described in the table cannot drift from what the Action reads.
 */
import { Document, isMap, isScalar, Scalar } from "yaml";
import type { Setting } from "../run/setting.ts";
import { SETTING_ROWS } from "../run/settings.ts";

interface ActionYmlInput {
  description: string;
  required: false;
  default?: string;
}

/** The inputs as action.yml declares them, keyed by input name. */
export function actionYmlInputs(): Record<string, ActionYmlInput> {
  const inputs: Record<string, ActionYmlInput> = {};
  for (const [, row] of SETTING_ROWS) {
    if (row.input === undefined) continue;
    const fallback = row.inputDefault ?? row.default ?? (row.kind === "boolean" ? "false" : undefined);
    inputs[row.input] = { description: descriptionOf(row), required: false, ...(fallback === undefined ? {} : { default: fallback }) };
  }
  return inputs;
}

/** The input's own words where it has them, else the flag's help as a sentence. */
function descriptionOf(row: Setting): string {
  const text = row.inputHelp ?? row.help;
  return text.endsWith(".") ? text : `${text}.`;
}

/** `text` (action.yml) with its `inputs:` block rewritten from the table; every other line is kept as it is. */
export function withTableInputs(text: string): string {
  const doc = new Document({ inputs: actionYmlInputs() });
  const inputs = doc.get("inputs", true);
  if (isMap(inputs)) {
    for (const input of inputs.items) {
      const description = isMap(input.value) ? input.value.get("description", true) : undefined;
      // Long descriptions folded, as a person writes them; short ones on their line.
      if (isScalar(description) && String(description.value).length > 100) description.type = Scalar.BLOCK_FOLDED;
    }
  }
  const block = doc.toString({ lineWidth: 120 });
  // From `inputs:` to the next top-level key (or the end), blank lines before that key kept.
  const match = /^inputs:\n(?:(?: .*)?\n)*?(?=\n*(?:\S|$(?![\s\S])))/m.exec(text);
  if (!match) throw new Error("action.yml has no top-level inputs: block");
  return text.slice(0, match.index) + block + text.slice(match.index + match[0].length);
}
