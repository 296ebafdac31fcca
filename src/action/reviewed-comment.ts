/**
 * The reviewed plan in the plan comment (DESIGN §7): the hidden block to append, or, when the plan cannot be
 * carried, a visible note saying that the merge will apply nothing of it (and, when it was too large, a
 * hidden line saying so to the merge). Pure.
 */
import type { Plan } from "../plan/types.ts";
import { unreviewableNote } from "../render/github-notes.ts";
import { encodeReviewedBlock, omittedBlock, REVIEWED_BLOCK_BUDGET } from "./reviewed-block.ts";
import type { Report } from "./run-context.ts";

/**
 * `report` and the block to append after its visible part (`""` when none). A refused plan carries none (it
 * approves nothing anyway). The block holds no secret, but it is checked against `redact` all the same: a
 * redactor that would change it (a very short password) would damage it, so it is left out and said so.
 */
export function carryReviewedPlan(
  report: Report,
  plan: Plan,
  made: { headSha: string | undefined; config: string },
  redact: (text: string) => string,
  budget = REVIEWED_BLOCK_BUDGET,
): { report: Report; block: string } {
  if (plan.refusals.length > 0) return { report, block: "" };
  const encoded = made.headSha
    ? encodeReviewedBlock(plan, { headSha: made.headSha, config: made.config }, budget)
    : { code: "invalid" as const, problem: "The pull request's head commit is unknown." };
  if ("block" in encoded && redact(encoded.block) === encoded.block) return { report, block: encoded.block };
  const tooLarge = "code" in encoded && encoded.code === "too-large";
  const why = "problem" in encoded ? encoded.problem : "Masking a secret would damage it.";
  const note = unreviewableNote(tooLarge, why);
  // A plan too large to carry leaves a hidden line that says so: the merge then names the cause, not "no review".
  return { report: { ...report, summary: `${report.summary}\n\n${note}` }, block: tooLarge ? omittedBlock() : "" };
}
