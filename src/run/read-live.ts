import type { Client } from "../api/types.ts";
import type { Config } from "../config/types.ts";
import type { Live } from "../model/state.ts";

/**
 * The Live side of the pipeline: every website, and every project when the config manages projects. Both
 * listings are complete and integrity-checked, or this throws: a failed read never yields a plan (DESIGN §5).
 */
export async function readLive(client: Client, config: Pick<Config, "projects">): Promise<Live> {
  const [websites, projects] = await Promise.all([client.websites.readAll(), config.projects ? client.projects.readAll() : undefined]);
  return projects ? { websites, projects } : { websites };
}
