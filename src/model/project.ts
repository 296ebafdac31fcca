/** A phpRank project (API-NOTES §5): a name grouping the reports of one host. It has no id. */
export interface LiveProject {
  project: string;
  reports: number;
  /** The sum of the reports' scores: a DECIMAL the API returns as a string, read as a number. */
  result: number;
  created_at: string;
}

export interface DesiredProject {
  project: string;
  state: "present" | "absent";
  source?: { file: string; line: number; column: number };
}

/** A project's identity: names are hosts, compared without case or surrounding spaces (API-NOTES §5). */
export function projectKey(name: string): string {
  return name.trim().toLowerCase();
}
