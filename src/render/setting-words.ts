/** A setting's problem (run/read-settings.ts) in words, with the spelling of the surface it was given on. */
import type { ValueProblem } from "../run/read-settings.ts";

/**
 * `--max-deletes must be …` on the CLI, `max-deletes must be …` in the Action: `spelling` is the flag with its
 * dashes, or the input's name. A value is quoted as given; no setting whose value is a key has a check that fails.
 */
export function settingProblemLine(problem: ValueProblem, spelling: string): string {
  switch (problem.code) {
    case "count":
      return `${spelling} must be a whole number of at least ${problem.min}, not "${problem.value}"`;
    case "count-max":
      return `${spelling} must be at most ${problem.max}, not ${problem.value}`;
    case "duration-unit":
      // The old meaning of a bare number, not a guess 1000 times longer ("5000s" is 83 minutes).
      return `${spelling} needs a unit: ${problem.value.trim()}ms (a bare number meant milliseconds before), not "${problem.value}"; durations take ms, s, m or h`;
    case "duration":
      return `${spelling} must be a duration such as 500ms, 30s or 2m, not "${problem.value}"`;
    case "duration-zero":
      return `${spelling} must be longer than 0`;
    case "enum":
      return `${spelling} must be ${problem.options.slice(0, -1).join(", ")} or ${problem.options.at(-1)}, not "${problem.value}"`;
    case "boolean":
      return `${spelling} must be true or false, not "${problem.value}"`;
    case "chance":
      return `${spelling} must be a chance between 0 and 1, such as 0.05, not "${problem.value}"`;
    case "one":
      return `${spelling} takes one value, not ${problem.count} lines`;
  }
}
