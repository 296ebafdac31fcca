/** phpRank's API\ProjectController (API-NOTES §5): a project list and a delete by name. */

import { paginate } from "./_paginate.ts";
import { likeContains, phpString, phpTruthy } from "./_php.ts";
import { json, notFound } from "./_reply.ts";
import { oneOf, perPageOf, type RouteContext, type RouteResult, scalar } from "./_route-context.ts";
import type { StoredProject } from "./types.ts";

/** ProjectResource, key order exact: no id, `result` a DECIMAL sum that PDO returns as a string. */
function resource(project: StoredProject): Record<string, unknown> {
  return {
    project: project.project,
    reports: project.reports,
    result: String(project.result),
    created_at: project.created_at,
  };
}

export function index(context: RouteContext): RouteResult {
  const { input } = context;
  const search = scalar(input.search);
  const sortBy = oneOf(input.sort_by, ["project", "created_at"], "created_at");
  const sort = oneOf(input.sort, ["asc", "desc"], "desc");
  const perPage = perPageOf(input.per_page, context.settings.defaultPerPage);

  let rows = context.store.projects(sortBy);
  if (phpTruthy(search)) {
    const matches = likeContains(phpString(search));
    rows = rows.filter((p) => matches(p.project));
  }
  const total = rows.length;
  const body = paginate(
    {
      total,
      at: (i) => rows[sort === "asc" ? i : total - 1 - i]!,
      page: input.page,
      perPage: perPage.count,
      path: `${context.baseUrl}/api/v1/projects`,
      appends: [
        ["search", search],
        ["search_by", "project"],
        ["sort_by", sortBy],
        ["sort", sort],
        ["per_page", perPage.echo],
      ],
    },
    resource,
  );
  return { reply: json(200, body) };
}

/** Deletes every report of the project; `id` is the name as given and `object` is "report". */
export function destroy(context: RouteContext): RouteResult {
  const name = context.params[0] ?? "";
  if (!context.store.removeProject(name)) return { reply: notFound() };
  return { reply: json(200, { id: name, object: "report", deleted: true, status: 200 }), wrote: true };
}
