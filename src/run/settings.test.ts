/** The settings table holds together: every surface derived from it can tell its rows apart, and every default reads. */
import { describe, expect, it } from "vitest";
import { readValue } from "./read-settings.ts";
import type { SettingCommand } from "./setting.ts";
import { SETTING_ROWS } from "./settings.ts";

const COMMANDS: SettingCommand[] = ["validate", "plan", "apply", "show", "export", "matrix", "sandbox"];

describe("the settings table", () => {
  it.each(COMMANDS)("gives each flag and alias of %s to one setting", (command) => {
    const rows = SETTING_ROWS.filter(([, row]) => row.flag && row.commands.includes(command)).map(([, row]) => row);
    const flags = rows.map((row) => row.flag);
    const aliases = rows.flatMap((row) => (row.alias ? [row.alias] : []));
    expect(flags.filter((flag, i) => flags.indexOf(flag) !== i)).toEqual([]);
    expect(aliases.filter((alias, i) => aliases.indexOf(alias) !== i)).toEqual([]);
  });

  it("gives each Action input to one setting, which applies to plan, apply or drift", () => {
    const inputs = SETTING_ROWS.flatMap(([, row]) => (row.input ? [row.input] : []));
    expect(inputs.filter((input, i) => inputs.indexOf(input) !== i)).toEqual([]);
    const outside = SETTING_ROWS.filter(
      ([, row]) => row.input && !row.commands.some((c) => c === "plan" || c === "apply" || c === "drift"),
    );
    expect(outside.map(([name]) => name)).toEqual([]);
  });

  it("reads every default as a value of its own kind", () => {
    const unread = SETTING_ROWS.filter(([, row]) => row.default !== undefined && !("value" in readValue(row, row.default)));
    expect(unread.map(([name]) => name)).toEqual([]);
  });

  it("never echoes a key: a sensitive setting is free text, which has no check to fail", () => {
    const checked = SETTING_ROWS.filter(([, row]) => row.sensitive && row.kind !== "string");
    expect(checked.map(([name]) => name)).toEqual([]);
  });

  it("leaves no setting without a surface", () => {
    expect(SETTING_ROWS.filter(([, row]) => !row.flag && !row.input).map(([name]) => name)).toEqual([]);
  });
});
