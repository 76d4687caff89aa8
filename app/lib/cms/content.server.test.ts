import { describe, expect, it } from "vitest";

import { recordedTags, type CmsClient, type CmsFetchOptions } from "./client.server.ts";
import { CmsError } from "./errors.server.ts";
import { findPageLocales, listPublishedPages, type PageRef } from "./content.server.ts";

/** A CMS client over a fixed list of pages, answering in pages of `pageSize` after `delay(page)` ms. */
function fakeCms(total: number, options: { delay?: (page: number) => number; failOn?: number } = {}) {
  const calls: Array<{ page: number; options: CmsFetchOptions }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const cms: CmsClient = {
    async get(_path, schema, fetchOptions) {
      const query = fetchOptions.query as { pagination: { page: number; pageSize: number } };
      const { page, pageSize } = query.pagination;
      calls.push({ page, options: fetchOptions });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, options.delay?.(page) ?? 0));
      inFlight--;
      if (page === options.failOn) throw new CmsError("unavailable", `page ${page} failed`);
      const data = Array.from({ length: total }, (_, index) => ({
        fullPath: `/p${index}`,
        locale: "en",
        updatedAt: null,
      }));
      return schema.parse({
        data: data.slice((page - 1) * pageSize, page * pageSize),
        meta: { pagination: { page, pageCount: Math.max(1, Math.ceil(total / pageSize)) } },
      });
    },
  };
  return { cms, calls, maxInFlight: () => maxInFlight };
}

async function collect(pages: AsyncIterable<PageRef>) {
  const all: PageRef[] = [];
  for await (const page of pages) all.push(page);
  return all;
}

describe("listPublishedPages", () => {
  it("keeps the CMS's order with several requests in flight, and no more than asked", async () => {
    // Later pages answer first: the listing must still come out in order.
    const fake = fakeCms(95, { delay: (page) => 40 - page * 3 });
    const pages = await collect(listPublishedPages(fake.cms, { pageSize: 10, concurrency: 4 }));
    expect(pages.map((page) => page.fullPath)).toEqual(Array.from({ length: 95 }, (_, index) => `/p${index}`));
    expect(fake.calls.map((call) => call.page).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(fake.maxInFlight()).toBe(4);
  });

  it("reads afresh by default (interval 0: no data cache); the sitemap's listing has an interval", async () => {
    const fake = fakeCms(3);
    await collect(listPublishedPages(fake.cms));
    expect(fake.calls[0]!.options).toMatchObject({
      type: "api::page.page",
      revalidate: 0,
      omitUserAuthorization: true,
    });
    const timed = fakeCms(3);
    await collect(listPublishedPages(timed.cms, { revalidate: 120 }));
    expect(timed.calls[0]!.options).toMatchObject({ revalidate: 120 });
    // What it records: the list of every locale and its sort's field (and each page listed, which
    // the fake's have no id for).
    expect(recordedTags(timed.calls[0]!.options, { data: [] })).toEqual([
      "cms:api::page.page",
      "cms:api::page.page:list:*",
      "cms:api::page.page:field:*:updatedAt",
    ]);
  });

  it("fails as a whole when one request fails, leaving no rejection unhandled", async () => {
    const fake = fakeCms(50, { failOn: 3, delay: (page) => (page === 3 ? 0 : 20) });
    await expect(collect(listPublishedPages(fake.cms, { pageSize: 10, concurrency: 4 }))).rejects.toThrow(
      "page 3 failed",
    );
  });
});

describe("findPageLocales", () => {
  it("asks for every published locale of the document, recording the document and no list", async () => {
    let seen: CmsFetchOptions | undefined;
    const cms: CmsClient = {
      async get(_path, schema, options) {
        seen = options;
        return schema.parse({
          data: [
            { locale: "en", fullPath: "/a" },
            { locale: "de", fullPath: "/b" },
          ],
        });
      },
    };
    expect(await findPageLocales(cms, "doc1", "/en/a")).toEqual([
      { locale: "en", fullPath: "/a" },
      { locale: "de", fullPath: "/b" },
    ]);
    expect(seen).toMatchObject({
      query: { filters: { documentId: { $eq: "doc1" } }, locale: "*" },
      pagePath: "/en/a",
      omitUserAuthorization: true,
    });
    expect(recordedTags(seen!, { data: [] })).toEqual(["cms:api::page.page", "cms:api::page.page:doc1"]);
  });
});
