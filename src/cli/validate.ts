import { defineCommand } from "citty";
import { configArgs, outputArgs, rejectUnknownFlags } from "./_args.ts";
import type { Io } from "./_io.ts";
import { loadConfigOrThrow } from "./_session.ts";

const args = { ...configArgs, quiet: outputArgs.quiet } as const;

export const examples = ["sitesync validate -c sitesync.yaml"];

export const validateCommand = defineCommand({
  meta: {
    name: "validate",
    description: "Check a config file offline (no key, no URL needed) and report every problem at once.",
  },
  args,
  run({ args: flags, rawArgs, data }) {
    const io = (data as { io: Io }).io;
    rejectUnknownFlags(rawArgs, args);
    const config = loadConfigOrThrow(flags.config, io, flags.quiet);
    const projects = config.projects ? `, ${config.projects.length} project${config.projects.length === 1 ? "" : "s"}` : "";
    const n = config.websites.length;
    if (!flags.quiet) io.out(`${config.file} is valid: ${n} website${n === 1 ? "" : "s"}${projects}.`);
    return 0;
  },
});
