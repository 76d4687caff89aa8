import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { DataCache, Invalidations, MemoryStore } from "@cms-site/page-cache";
import { describe, expect, it } from "vitest";
import * as z from "zod";

import { createCmsClient, type CmsCallRecord } from "./client.server.ts";

// The site's CMS client on the page cache's data cache (@cms-site/page-cache): the tags it records.
describe("the CMS client's reads through the data cache", () => {
  it("with the CMS client: a hit reports the tags the fetch recorded, without asking the CMS", async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ data: [{ documentId: "a1" }, { documentId: "a2" }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const invalidations = new Invalidations();
      const dataCache = new DataCache(new MemoryStore<unknown>(1_000_000), invalidations);
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const render = async () => {
        const calls: CmsCallRecord[] = [];
        const cms = createCmsClient({
          baseUrl,
          apiToken: "t",
          timeoutMs: 2_000,
          dataCache,
          onCall: (c) => calls.push(c),
        });
        await cms.get("/api/articles", z.object({ data: z.array(z.unknown()) }), {
          type: "api::article.article",
          query: { locale: "en" },
          omitUserAuthorization: true,
        });
        return calls.map((call) => call.tags);
      };
      const expected = [
        [
          "cms:api::article.article",
          "cms:api::article.article:a1",
          "cms:api::article.article:a2",
          "cms:api::article.article:list:en",
        ],
      ];
      expect(await render()).toEqual(expected);
      expect(await render()).toEqual(expected);
      expect(requests).toBe(1);
      invalidations.revalidateTag("cms:api::article.article:a2");
      expect(await render()).toEqual(expected);
      expect(requests).toBe(2);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
