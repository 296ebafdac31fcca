// The change as an input (DESIGN §3, §9): the config at a base revision vs now, and what it touches.

export { type ChangeOptions, changeFromText, changeSince } from "./change-since.ts";
export { diffConfigs, type Revision } from "./diff-configs.ts";
export { type NamesToRead, namesToRead } from "./names-to-read.ts";
export { type BaseText, type ReadBaseOptions, readBaseText } from "./read-base.ts";
