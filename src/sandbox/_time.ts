/** The three timestamp forms the API shows (API-NOTES §2.1). All UTC. */

/** A Carbon date attribute serialized: ISO with `.000000Z` (the DB keeps seconds). */
export function isoSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}.000000Z`;
}

/** A Carbon object that never went through the DB: ISO with microseconds. */
export function isoMicros(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000Z`;
}

/** A DATETIME column without a cast, as read from the DB: `YYYY-MM-DD HH:MM:SS`. */
export function rawSeconds(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}

/** Reads any of the forms above (or another ISO string) back into a Date; undefined when it is not a date. */
export function parseTimestamp(value: string): Date | undefined {
  const date = new Date(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(value) ? `${value.replace(" ", "T")}Z` : value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
