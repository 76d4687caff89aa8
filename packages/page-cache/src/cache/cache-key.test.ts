import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { pageKeyOf, SESSION_VARIANT_SUFFIX } from "./cache-key.ts";
import { keyInputsOf, type CanonicalQueryValue } from "./declared-query.ts";

const loader = () => null;
/** `?page=` as a paginated route would declare it: digits, no leading zeros, at most 4. */
const pageNumber: CanonicalQueryValue = (value) => (/^\d{1,4}$/.test(value) ? String(Number(value)) : undefined);

/** The shape of this site's route manifest (app/routes.ts), plus a paginated route. */
const routes = {
  root: { id: "root", path: "", module: { loader } },
  "routes/search": {
    id: "routes/search",
    parentId: "root",
    path: "search",
    module: { loader, handle: { cacheQuery: { q: (value: string) => value.trim() || undefined, page: pageNumber } } },
  },
  "routes/api.preview.exit": { id: "routes/api.preview.exit", parentId: "root", path: "api/preview/exit", module: {} },
  "routes/cms-home": { id: "routes/cms-home", parentId: "root", index: true, module: { loader } },
  "routes/cms-page": { id: "routes/cms-page", parentId: "root", path: "*", module: { loader } },
};
const inputs = keyInputsOf(routes);
const keyOf = (url: string, signedIn = false) => pageKeyOf(url, inputs, signedIn);

describe("page keys", () => {
  it.each([
    ["/about", "/about"],
    ["/about?utm_source=news&utm_medium=mail", "/about"],
    ["/about?fbclid=1&gclid=2&ref=x&x=%zz", "/about"],
    ["/company.data?_routes=routes%2Fcms-page&utm_source=x", "/company.data?_routes=routes%2Fcms-page"],
    ["/about?", "/about"],
  ])("%s is keyed as %s", (url, key) => {
    expect(keyOf(url)).toEqual({ kind: "key", url: key, key });
  });

  it("keeps the parameters a route declares, sorted, so their order does not matter", () => {
    const a = keyOf("/search?utm_source=x&q=shoes&page=2");
    const b = keyOf("/search?page=2&q=shoes");
    expect(a).toEqual(b);
    expect(a).toMatchObject({ url: "/search?page=2&q=shoes" });
    expect(keyOf("/search?q=boots")).not.toEqual(a);
  });

  it("survives 10,000 parameters", () => {
    const query = Array.from({ length: 10_000 }, (_, i) => `p${i}=${i}`).join("&");
    expect(keyOf(`/about?${query}`)).toMatchObject({ key: "/about" });
  });

  it("the signed-in variant has a key of its own, whatever the session's value", () => {
    expect(keyOf("/about?utm=1", true)).toMatchObject({ key: `/about${SESSION_VARIANT_SUFFIX}` });
  });
});

describe("_routes (React Router's single fetch)", () => {
  it.each([
    // What the client sends on a navigation that keeps the root's data: the page's own route.
    ["/company.data?_routes=routes%2Fcms-page", "/company.data?_routes=routes%2Fcms-page"],
    ["/_.data?_routes=routes%2Fcms-home", "/_.data?_routes=routes%2Fcms-home"],
    // One spelling: each id once; every loader, or none named, is what no parameter means.
    ["/company.data?_routes=routes/cms-page,routes/cms-page", "/company.data?_routes=routes%2Fcms-page"],
    ["/de/company.data?_routes=root,routes/cms-page", "/de/company.data"],
    ["/company.data?_routes=routes/cms-page,root", "/company.data"],
    ["/company.data?_routes=", "/company.data"],
    ["/search.data?page=2&_routes=routes/search", "/search.data?_routes=routes%2Fsearch&page=2"],
    // A document request runs every loader: `_routes` means nothing there and is left out.
    ["/company?_routes=anything", "/company"],
  ])("%s is keyed as %s", (url, key) => {
    expect(keyOf(url)).toEqual({ kind: "key", url: key, key });
  });

  it.each([
    ["a random value", "/about.data?_routes=x7Gq2"],
    ["a real route this address does not match", "/about.data?_routes=routes/search"],
    ["the home page's route on another page", "/about.data?_routes=routes/cms-home"],
    ["a route without a loader", "/api/preview/exit.data?_routes=routes/api.preview.exit"],
    ["one good id and one forged", "/about.data?_routes=root,forged"],
    ["empty ids", "/about.data?_routes=,"],
    ["the parameter twice", "/about.data?_routes=root&_routes=routes/cms-page"],
  ])("%s is refused, with a reason: %s", (_, url) => {
    expect(keyOf(url)).toEqual({ kind: "refused", reason: expect.stringMatching(/^_routes may /) as string });
  });

  it("without the page's own route (nothing then checks the page exists): answered, never stored", () => {
    expect(keyOf("/about.data?_routes=root")).toEqual({ kind: "uncached" });
    expect(keyOf("/no-such-page.data?_routes=root")).toEqual({ kind: "uncached" });
    expect(keyOf("/search.data?_routes=root&page=2")).toEqual({ kind: "uncached" });
  });

  it("whatever a stranger sends, /about.data has at most two keys per variant", () => {
    const ids = fc.constantFrom("root", "routes/cms-page", "routes/cms-home", "routes/search", "", "x", ",");
    const keys = new Set<string>();
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(ids).map((list) => list.join(",")),
        ),
        (value) => {
          const outcome = keyOf(`/about.data?_routes=${encodeURIComponent(value)}&utm_source=${value.length}`);
          if (outcome.kind === "key") keys.add(outcome.key);
        },
      ),
      { numRuns: 2_000 },
    );
    expect([...keys].sort()).toEqual(["/about.data", "/about.data?_routes=routes%2Fcms-page"]);
  });
});

describe("declared query parameters", () => {
  it("come from the matched routes' handle, with the routes that have a loader", () => {
    expect(inputs("/search").query).toHaveProperty("page");
    expect(inputs("/search.data").loaderRouteIds).toEqual(["root", "routes/search"]);
    expect(inputs("/company")).toEqual({ query: {}, loaderRouteIds: ["root", "routes/cms-page"] });
    expect(inputs("/")).toEqual({ query: {}, loaderRouteIds: ["root", "routes/cms-home"] });
    expect(inputs("/_.data")).toEqual(inputs("/"));
    expect(inputs("/company/_.data")).toEqual(inputs("/company/"));
    expect(inputs("/api/preview/exit").loaderRouteIds).toEqual(["root"]);
  });

  it.each([
    ["a value in another spelling", "/search?page=01", "/search?page=1"],
    ["a repeated parameter: the first value, the one the loader reads", "/search?page=2&page=3", "/search?page=2"],
    ["a value the page does not accept", "/search?page=abc&q=%20", "/search"],
    ["a value too long to be a page", "/search?page=123456789", "/search"],
  ])("%s: %s is keyed as %s", (_, url, key) => {
    expect(keyOf(url)).toMatchObject({ kind: "key", key });
  });

  it("a route that names parameters without saying how their values are spelled is refused at start", () => {
    const named = {
      ...routes,
      "routes/search": { ...routes["routes/search"], module: { handle: { cacheQuery: ["page"] } } },
    };
    expect(() => keyInputsOf(named)).toThrow(/routes\/search: handle.cacheQuery must map each query parameter/);
    const reserved = {
      ...routes,
      root: { ...routes.root, module: { handle: { cacheQuery: { _routes: pageNumber } } } },
    };
    expect(() => keyInputsOf(reserved)).toThrow(/"_routes" is React Router's own/);
  });
});
