import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { projectRoot, type AppHandle } from "../support/app-server.ts";
import type { CmsHandle } from "../support/cms-server.ts";
import type { ProjectCopy } from "../support/project-copy.ts";
import { startProjectCopyStack, type ProjectCopyStack } from "../support/project-copy-stack.ts";
import { getPage } from "../support/site-requests.ts";
import { StrapiAdmin } from "../support/strapi-admin.ts";
import { until } from "../support/wait.ts";

// Issue 23, point 4: adding a content type is a schema and a route (docs/add-a-content-type.md).
// tests/fixtures/add-a-content-type/ is what a developer writes when they follow the guide for a
// "event" type: the Strapi API of the type (its schema with the site-cache block, and Strapi's usual
// controller/route/service files) and one route file, mounted by two lines in app/routes.ts. The
// fixture is laid over a copy of the project, which is built and run as it is (the real Strapi of
// the copy, the production site with the page cache on): nothing else is changed, no engine file,
// no tag list, no token permission. Publishing a event must then show on its page and on the listing,
// and an edit and an unpublish too, through the CMS's own revalidation.

const fixture = path.join(projectRoot, "tests/fixtures/add-a-content-type");
const EVENTS = "/content-manager/collection-types/api::event.event";
const secrets = { CMS_REVALIDATE_SECRET: "add-a-content-type-secret-0123456789" };
const run = Date.now().toString(36);

describe("a content type added with one schema and one route", () => {
  let stack: ProjectCopyStack;
  let copy: ProjectCopy;
  let cms: CmsHandle;
  let app: AppHandle;
  let typechecked: Promise<void>;
  let cmsTestsPassed: Promise<void>;
  const get = (pagePath: string) => getPage(app.url, pagePath);

  beforeAll(async () => {
    stack = await startProjectCopyStack(fixture, { name: "add-a-content-type", secrets });
    ({ copy, cms, app } = stack);
    // The typecheck and the CMS's tests are about one core of CPU work each, independent of each
    // other: both start now and run side by side; each test below waits for its own (a failure is
    // its test's, not an unhandled rejection before it).
    typechecked = copy.typecheck();
    cmsTestsPassed = copy.cmsTests();
    for (const job of [typechecked, cmsTestsPassed]) job.catch(() => {});
  }, 420_000);

  afterAll(() => stack?.stop(), 60_000);

  it("the fixture is the type's Strapi API, one route file and its two lines in app/routes.ts: no engine file", () => {
    expect(copy.changed).toEqual([
      "app/routes.ts",
      "app/routes/events.tsx",
      "cms/src/api/event/content-types/event/schema.json",
      "cms/src/api/event/controllers/event.js",
      "cms/src/api/event/routes/event.js",
      "cms/src/api/event/services/event.js",
    ]);
  });

  // The project's whole typecheck: CPU work, not a wait. `npm run typecheck` took 4 min at load
  // 30 on the 2-core machine (and ran past the 2 min this test had); its budget is twice that.
  it("the copy with the fixture typechecks (the route's types from React Router's typegen)", async () => {
    await typechecked;
  }, 480_000);

  it("the CMS's own tests still pass with the new type (none pins the list of types)", async () => {
    await cmsTestsPassed;
  }, 240_000);

  it("publishing, editing and unpublishing an event revalidate its page and the listing", async () => {
    // The listing cached while there is no event, and the event's address cached as a 404.
    const slug = `meetup-${run}`;
    await until(
      "/events to be cached",
      () => get("/events"),
      (answer) => answer.status === 200 && answer.cache === "HIT",
    );
    expect((await get("/events")).text).not.toContain(slug);
    await until(
      "the event's address to be cached",
      () => get(`/events/${slug}`),
      (answer) => answer.cache === "HIT",
    );
    expect((await get(`/events/${slug}`)).status).toBe(404);

    // Published: the read-only token may read the new type (its permissions follow from the
    // schema), and the listing and the event's page show it once the CMS's revalidation arrived.
    const admin = await StrapiAdmin.login(cms.url);
    let from = app.output().length;
    const { data } = (await admin.call("POST", `${EVENTS}?locale=en`, {
      title: `Meetup ${run}`,
      slug,
      location: "Berlin",
    })) as { data: { documentId: string } };
    await admin.call("POST", `${EVENTS}/${data.documentId}/actions/publish?locale=en`, {});
    await until(
      "the site to log the event's revalidation",
      () => app.output().slice(from),
      (log) => log.includes(`[revalidate] uid=api::event.event paths=/en/events/${slug},/events/${slug} `),
    );
    const listing = await get("/events");
    expect(listing.cache).not.toBe("HIT");
    await until(
      "/events to list the event",
      () => get("/events"),
      (answer) => answer.text.includes(`Meetup ${run}`),
    );
    await until(
      "the event's page",
      () => get(`/events/${slug}`),
      (answer) => answer.status === 200,
    );
    expect((await get(`/events/${slug}`)).text).toContain("Berlin");

    // Edited and republished: both show the new title (cached again first, so the change comes from the revalidation).
    await until(
      "the event's page to be cached",
      () => get(`/events/${slug}`),
      (answer) => answer.cache === "HIT",
    );
    await until(
      "/events to be cached",
      () => get("/events"),
      (answer) => answer.cache === "HIT",
    );
    from = app.output().length;
    await admin.call("PUT", `${EVENTS}/${data.documentId}?locale=en`, { title: `Summer meetup ${run}` });
    await admin.call("POST", `${EVENTS}/${data.documentId}/actions/publish?locale=en`, {});
    await until(
      "the site to log the edit's revalidation",
      () => app.output().slice(from),
      (log) => log.includes(`[revalidate] uid=api::event.event paths=/en/events/${slug},/events/${slug} `),
    );
    await until(
      "the new title on its page",
      () => get(`/events/${slug}`),
      (a) => a.text.includes(`Summer meetup ${run}`),
    );
    await until(
      "the new title on /events",
      () => get("/events"),
      (a) => a.text.includes(`Summer meetup ${run}`),
    );

    // Unpublished: a takedown, the page is gone and the listing no longer has it, at once.
    await admin.call("POST", `${EVENTS}/${data.documentId}/actions/unpublish?locale=en`, {});
    expect((await get(`/events/${slug}`)).status).toBe(404);
    expect((await get("/events")).text).not.toContain(slug);
  }, 120_000);
});
