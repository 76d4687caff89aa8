import { RenderReads } from "@cms-site/page-cache";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";

import type { CmsClient, CmsFetchOptions } from "./client.server.ts";
import { ERROR_PAGE_UID, loadErrorText } from "./error-page.server.ts";
import { FALLBACK_ERROR_TEXT } from "./error-page.ts";
import { CmsError } from "./errors.server.ts";
import { memoryLog } from "../../../tests/support/memory-log.ts";
import { cmsContext, logContext, renderReadsContext } from "../request-context.server.ts";

/** A request context whose CMS client answers /api/error-page with `answer` (or throws it), logging to `log`. */
function contextWith(answer: unknown | CmsError, log = memoryLog()) {
  const calls: Array<{ path: string; options: CmsFetchOptions | undefined }> = [];
  const cms: CmsClient = {
    async get(path, schema, options) {
      calls.push({ path, options });
      if (answer instanceof CmsError) throw answer;
      return schema.parse(answer);
    },
  };
  const context = new RouterContextProvider();
  context.set(cmsContext, cms);
  context.set(logContext, log);
  context.set(renderReadsContext, new RenderReads());
  return { context, calls, dynamic: () => context.get(renderReadsContext).dynamic };
}

const entry = {
  data: { notFoundTitle: "Seite weg", notFoundText: "Hier ist nichts.", errorTitle: "Fehler", errorText: "Kaputt." },
};

describe("loadErrorText", () => {
  it("reads the Error page of the locale, naming its type, and keeps the render cacheable", async () => {
    const { context, calls, dynamic } = contextWith(entry);
    expect(await loadErrorText(context, "not-found", "de")).toEqual({
      title: "Seite weg",
      message: "Hier ist nichts.",
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.path).toBe("/api/error-page");
    expect(calls[0]?.options).toMatchObject({
      query: { locale: "de" },
      type: ERROR_PAGE_UID,
      omitUserAuthorization: true,
    } satisfies Partial<CmsFetchOptions>);
    expect(dynamic()).toBe(false);
  });

  it("no Error page in the locale (404): the built-in words, and the 404 may still be cached", async () => {
    const { context, dynamic } = contextWith(new CmsError("not-found", "The CMS has nothing at /api/error-page."));
    expect(await loadErrorText(context, "not-found", "de")).toEqual(FALLBACK_ERROR_TEXT.de!["not-found"]);
    expect(dynamic()).toBe(false);
  });

  it("the CMS down or answering nonsense: the built-in words, logged, and the render is not cached", async () => {
    const log = memoryLog();
    for (const failure of [
      new CmsError("unavailable", "down"),
      new CmsError("bad-response", "nonsense"),
      new CmsError("failed", "The CMS answered 500 on /api/error-page."),
    ]) {
      const { context, dynamic } = contextWith(failure, log);
      expect(await loadErrorText(context, "error", "en")).toEqual(FALLBACK_ERROR_TEXT.en!.error);
      expect(dynamic(), failure.message).toBe(true);
    }
    expect(log.messages("error")).toEqual([
      "[cms] error page text unavailable, using the built-in one: down",
      "[cms] error page text unavailable, using the built-in one: nonsense",
      "[cms] error page text unavailable, using the built-in one: The CMS answered 500 on /api/error-page.",
    ]);
  });

  it("cmsDown: the CMS is not asked again", async () => {
    const { context, calls } = contextWith(entry);
    expect(await loadErrorText(context, "error", "de", { cmsDown: true })).toEqual(FALLBACK_ERROR_TEXT.de!.error);
    expect(calls).toHaveLength(0);
  });
});
