import { decodeDeleted, decodePage, decodeProject, decodeResponse } from "./decode.ts";
import { encodeListProjects } from "./encode.ts";
import { readAll } from "./paginate.ts";
import { pathSegment, type Service } from "./service.ts";
import type { ProjectsApi, ReadProgress } from "./types.ts";

const PER_PAGE = 100;
const decodeProjectPage = decodePage(decodeProject);

/** The phpRank Projects API (API-NOTES §5): a project is a name, with no id. */
export function createProjectsApi(service: Service, onProgress?: (event: ReadProgress) => void): ProjectsApi {
  const list: ProjectsApi["list"] = async (params = {}) =>
    decodeResponse(await service.request("GET", "projects", { query: encodeListProjects(params) }), decodeProjectPage);

  return {
    list,
    delete: async (project) =>
      decodeResponse(await service.request("DELETE", `projects/${pathSegment(project)}`), decodeDeleted("project")),
    readAll: async () => {
      const base = { per_page: PER_PAGE, sort_by: "project", sort: "asc" } as const;
      return readAll({
        page: (page) => list({ ...base, page }),
        key: (project) => project.project,
        perPage: PER_PAGE,
        url: service.url("projects", encodeListProjects(base)),
        noun: "projects",
        onProgress,
      });
    },
  };
}
