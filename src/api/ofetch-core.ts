/**
 * The parts of ofetch sitesync uses (DESIGN §10): `createFetch`, given sitesync's own fetch and Headers
 * (transport.ts), and `FetchError`. ofetch's package entry also builds a default instance from Node's globals as
 * it loads: reading `globalThis.Headers` loads undici, and its Node entry loads node-fetch-native besides, ~60 ms
 * of CPU in every command that sends a request, for objects sitesync never uses. So the package build replaces
 * this module with these two exports bundled from ofetch's own code without that instance
 * (scripts/ofetch-core.ts), and the Action's bundle does the same; a checkout imports them from the entry.
 */
export { createFetch, FetchError, type FetchResponse } from "ofetch";
