import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { projectRoot, type AppHandle } from "../support/app-server.ts";
import type { CmsHandle } from "../support/cms-server.ts";
import type { ProjectCopy } from "../support/project-copy.ts";
import { startProjectCopyStack, type ProjectCopyStack } from "../support/project-copy-stack.ts";
import { getPage } from "../support/site-requests.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { until } from "../support/wait.ts";

// Issue 30, point 7: a listing filtered by a field re-renders when an edit moves a document into
// it (rule C7, decision 0033). tests/fixtures/filtered-listing/ adds, as docs/add-a-content-type.md
// says, an "opening" type with an enumeration (`employmentType`: full-time, part-time) and a route
// listing the openings of one type, `/openings/<employmentType>`, laid over a copy of the project
// and run as it is: its real Strapi, the production site with the page cache on. The listing's call
// records the list's tag and the `employmentType` field's; an edit that changes an opening's type
// sends the field's tag (the list's tag goes only when a document joins or leaves the list).

const fixture = path.join(projectRoot, "tests/fixtures/filtered-listing");
const OPENINGS = "/content-manager/collection-types/api::opening.opening";
const secrets = { CMS_REVALIDATE_SECRET: "filtered-listing-secret-0123456789" };
const run = Date.now().toString(36);

describe("a listing filtered by an enumeration", () => {
  let stack: ProjectCopyStack;
  let copy: ProjectCopy;
  let cms: CmsHandle;
  let app: AppHandle;
  const get = (pagePath: string) => getPage(app.url, pagePath);
  const cached = (pagePath: string) =>
    until(
      `${pagePath} to be cached`,
      () => get(pagePath),
      (answer) => answer.status === 200 && answer.cache === "HIT",
    );

  beforeAll(async () => {
    stack = await startProjectCopyStack(fixture, { name: "filtered-listing", secrets });
    ({ copy, cms, app } = stack);
  }, 420_000);

  afterAll(() => stack?.stop(), 60_000);

  it("the fixture is the type's Strapi API, its module (a route file and its routes) and its two lines", () => {
    expect(copy.changed).toEqual([
      "app/content-types/index.ts",
      "app/content-types/openings/openings.tsx",
      "app/content-types/openings/routes.ts",
      "cms/src/admin-grants.js",
      "cms/src/api/opening/content-types/opening/schema.json",
      "cms/src/api/opening/controllers/opening.js",
      "cms/src/api/opening/routes/opening.js",
      "cms/src/api/opening/services/opening.js",
    ]);
  });

  it("an edit that moves an opening into the full-time listing re-renders both listings, and nothing else", async () => {
    const title = `Platform engineer ${run}`;
    const admin = await StrapiAdmin.login(cms.url);
    const revalidated = async (from: number) =>
      until(
        "the site to log the opening's revalidation",
        () => app.output().slice(from),
        (log) => log.includes("[revalidate] uid=api::opening.opening "),
      );

    // A part-time opening, published.
    const { data } = (await admin.call("POST", `${OPENINGS}?locale=en`, { title, employmentType: "part-time" })) as {
      data: { documentId: string };
    };
    const id = data.documentId;
    let from = app.output().length;
    await admin.call("POST", `${OPENINGS}/${id}/actions/publish?locale=en`, {});
    await revalidated(from);

    // Both listings cached, and a page of other content.
    expect((await cached("/openings/part-time")).text).toContain(title);
    expect((await cached("/openings/full-time")).text).not.toContain(title);
    await cached("/blog");

    // The editor makes it full-time and publishes: no document joined or left the list of openings.
    from = app.output().length;
    await admin.call("PUT", `${OPENINGS}/${id}?locale=en`, { employmentType: "full-time" });
    await admin.call("POST", `${OPENINGS}/${id}/actions/publish?locale=en`, {});
    const log = await revalidated(from);
    expect(log).toContain("cms:api::opening.opening:field:en:employmentType");
    expect(log).not.toContain("cms:api::opening.opening:list:en");

    // The full-time listing is no longer answered from its cached render: it shows the opening.
    expect((await get("/openings/full-time")).cache).not.toBe("HIT");
    await until(
      "/openings/full-time to list the opening",
      () => get("/openings/full-time"),
      (answer) => answer.text.includes(title),
    );
    await until(
      "/openings/part-time to no longer list it",
      () => get("/openings/part-time"),
      (answer) => answer.status === 200 && !answer.text.includes(title),
    );
    // Content the edit did not touch stays cached.
    expect((await get("/blog")).cache).toBe("HIT");
  }, 120_000);
});
