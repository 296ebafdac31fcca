// The library surface (DESIGN §1): every stage of the pipeline, usable on its own.
export * from "./errors.ts";
export type * from "./model/website.ts";
export type * from "./model/project.ts";
export type * from "./api/types.ts";
export type * from "./config/types.ts";
export type * from "./plan/types.ts";
