import { describe, expect, it } from "vitest";

import { cookieNames } from "../../app/lib/cookie-names.ts";
import { bypassesPageCache, hasSessionCookie, pageKeyOf, SESSION_VARIANT_SUFFIX } from "./cache-key.ts";
import { declaredQueryParams } from "./declared-query.ts";

const none = () => [];

describe("page keys", () => {
  it.each([
    ["/about", "/about"],
    ["/about?utm_source=news&utm_medium=mail", "/about"],
    ["/about?fbclid=1&gclid=2&ref=x&x=%zz", "/about"],
    ["/company.data?_routes=routes%2Fcms-page&utm_source=x", "/company.data?_routes=routes%2Fcms-page"],
    ["/about?", "/about"],
  ])("%s is keyed as %s", (url, key) => {
    expect(pageKeyOf(url, none, false)).toEqual({ url: key, key });
  });

  it("keeps the parameters a route declares, sorted, so their order does not matter", () => {
    const declared = (path: string) => (path === "/search" ? ["q", "page"] : []);
    const a = pageKeyOf("/search?utm_source=x&q=shoes&page=2", declared, false);
    const b = pageKeyOf("/search?page=2&q=shoes", declared, false);
    expect(a).toEqual(b);
    expect(a.url).toBe("/search?page=2&q=shoes");
    expect(pageKeyOf("/search?q=boots", declared, false).key).not.toBe(a.key);
  });

  it("survives 10,000 parameters", () => {
    const query = Array.from({ length: 10_000 }, (_, i) => `p${i}=${i}`).join("&");
    expect(pageKeyOf(`/about?${query}`, none, false).key).toBe("/about");
  });

  it("the signed-in variant has a key of its own, whatever the session's value", () => {
    expect(pageKeyOf("/about?utm=1", none, true).key).toBe(`/about${SESSION_VARIANT_SUFFIX}`);
    // On http (development): the plain name, and only it.
    const http = cookieNames(false);
    expect(hasSessionCookie("_ga=GA1.1.1; better-auth.session_token=abc.def", http)).toBe(true);
    expect(hasSessionCookie("__Host-better-auth.session_token=abc", http)).toBe(false);
    expect(hasSessionCookie("_ga=GA1.1.1; consent=yes", http)).toBe(false);
    expect(hasSessionCookie("better-auth.session_token=", http)).toBe(false);
    expect(hasSessionCookie("xbetter-auth.session_token=abc", http)).toBe(false);
    expect(hasSessionCookie(undefined, http)).toBe(false);
  });
});

describe("declared query parameters", () => {
  const routes = {
    root: { id: "root", path: "", module: {} },
    "routes/search": {
      id: "routes/search",
      parentId: "root",
      path: "search",
      module: { handle: { cacheQuery: ["q", "page"] } },
    },
    "routes/cms-home": { id: "routes/cms-home", parentId: "root", index: true, module: {} },
    "routes/cms-page": { id: "routes/cms-page", parentId: "root", path: "*", module: {} },
  };
  const declared = declaredQueryParams(routes);

  it("come from the matched routes' handle", () => {
    expect(declared("/search")).toEqual(["q", "page"]);
    expect(declared("/search.data")).toEqual(["q", "page"]);
    expect(declared("/company")).toEqual([]);
    expect(declared("/")).toEqual([]);
    expect(declared("/_root.data")).toEqual([]);
  });
});

describe("requests the page cache neither answers nor stores", () => {
  it.each([
    [{ cookie: "site_preview=v1.1.abc" }, true],
    [{ cookie: "a=1; site_preview=x; b=2" }, true],
    [{ cookie: "site_preview_published=1" }, true],
    [{ authorization: "Bearer x" }, true],
    [{ cookie: "site_preview=" }, false],
    [{ cookie: "xsite_preview=1; better-auth.session_token=abc" }, false],
    [{ cookie: undefined }, false],
    [{}, false],
  ])("%j -> %s", (headers, bypass) => {
    expect(bypassesPageCache(headers, cookieNames(false))).toBe(bypass);
  });
});

describe("on https, exactly the __Host- names (app/lib/cookie-names.ts)", () => {
  const https = cookieNames(true);

  it("only the __Host- session cookie picks the signed-in variant: one a sibling subdomain planted does not", () => {
    expect(hasSessionCookie("__Host-better-auth.session_token=abc.def", https)).toBe(true);
    for (const planted of ["better-auth.session_token=abc.def", "__Secure-better-auth.session_token=abc.def"]) {
      expect(hasSessionCookie(`_ga=1; ${planted}`, https), planted).toBe(false);
    }
  });

  it("only the __Host- preview cookies bypass the cache", () => {
    expect(bypassesPageCache({ cookie: "__Host-site_preview=v1.1.abc" }, https)).toBe(true);
    expect(bypassesPageCache({ cookie: "__Host-site_preview_published=1" }, https)).toBe(true);
    for (const planted of ["site_preview=v1.1.abc", "site_preview_published=1", "__Secure-site_preview_published=1"]) {
      expect(bypassesPageCache({ cookie: planted }, https), planted).toBe(false);
    }
  });
});
