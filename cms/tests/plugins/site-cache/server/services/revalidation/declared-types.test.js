"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const { receiver, startStrapi, until } = require("../../../../../support/strapi");
const { repoContentTypes } = require("../../../../../support/content-types");
const {
  readDeclarations,
  tokenPermissions,
} = require("../../../../../../../packages/strapi-plugin-site-cache/server/services/revalidation/declarations");

/**
 * The tag contract (docs/cms-contract.md, "What a write sends") against the real Strapi: editor
 * writes through the admin's content-manager API reach a stand-in of the site as ONE POST
 * /api/cms-revalidate each, with exactly the declared tags and paths; the read-only token's
 * permissions follow from the declarations and are put back on a start. "Nothing else" is checked
 * once the CMS has settled every revalidation of the writes so far (GET /site-cache/failures:
 * meta.inFlight is 0; a write's revalidation is counted from its commit, before it is answered).
 */

const SECRET = "test-cms-revalidate-secret-0123456789";
const ARTICLES = "/content-manager/collection-types/api::article.article";
const AUTHORS = "/content-manager/collection-types/api::author.author";
const CATEGORIES = "/content-manager/collection-types/api::category.category";
const PAGES = "/content-manager/collection-types/api::page.page";
const REDIRECTS = "/content-manager/collection-types/api::redirect.redirect";
const A = "cms:api::article.article";

let site;
let cms;
let admin;

async function call(method, apiPath, body, auth = `Bearer ${admin}`) {
  const response = await fetch(`${cms.url}${apiPath}`, {
    method,
    headers: { "content-type": "application/json", ...(auth ? { authorization: auth } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

async function ok(method, apiPath, body) {
  const result = await call(method, apiPath, body);
  if (result.status >= 300) throw new Error(`${method} ${apiPath}: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body;
}

async function login() {
  const result = await call("POST", "/admin/login", { email: "admin@example.com", password: "Admin12345" }, null);
  admin = result.body.data.token;
}

/** The field tags (C7) of each request of the last sentBy(), sorted: sentBy leaves them out. */
let fieldTags = [];

/**
 * Runs `write`, then waits for the CMS to settle: what the site got from it (each body, tags
 * sorted, field tags apart in `fieldTags`; `committedAt`, the write's commit time for the site's
 * publish-to-visible metric, which publishes carry, checked to be a time and left out).
 */
async function sentBy(write) {
  site.requests.length = 0;
  await write();
  await until(
    "the CMS's revalidations to settle",
    async () => (await ok("GET", "/site-cache/failures")).meta.inFlight,
    (inFlight) => inFlight === 0,
  );
  for (const request of site.requests) {
    assert.equal(request.url, "/api/cms-revalidate");
    assert.equal(request.authorization, `Bearer ${SECRET}`);
  }
  const isField = (tag) => tag.includes(":field:");
  fieldTags = site.requests.map(({ body }) => (body.next.tags ?? []).filter(isField).sort());
  return site.requests.map(({ body: { committedAt, ...body } }) => {
    if (committedAt !== undefined)
      assert.ok(Number.isInteger(committedAt) && committedAt <= Date.now(), `committedAt ${committedAt}`);
    const tags = (body.next.tags ?? []).filter((tag) => !isField(tag)).sort();
    return { ...body, next: { ...body.next, ...(body.next.tags ? { tags } : {}) } };
  });
}

/** The published English articles, newest first (the site's order): [{ documentId, slug, category, author }]. */
async function articles() {
  const { results } = await ok("GET", `${ARTICLES}?locale=en&pageSize=100&sort[0]=publishDate:desc&sort[1]=slug:asc`);
  return results
    .filter((a) => a.status === "published")
    .map((a) => ({
      documentId: a.documentId,
      slug: a.slug,
      category: a.category?.documentId,
      author: a.author?.documentId,
    }));
}

/** The documentIds of the published articles (any locale) linked to `documentId` through `attribute`. */
async function linkedArticles(attribute, documentId) {
  const query = new URLSearchParams({ locale: "*", [`filters[${attribute}][documentId][$eq]`]: documentId });
  query.set("fields[0]", "title");
  const { body } = await call(
    "GET",
    `/api/articles?${query}&pagination[pageSize]=100`,
    undefined,
    `Bearer ${cms.token}`,
  );
  return [...new Set(body.data.map((a) => a.documentId))].sort();
}

/** The locales of the published articles by an author. */
async function linkedArticleLocales(author) {
  const query = new URLSearchParams({ locale: "*", "filters[author][documentId][$eq]": author, "fields[0]": "locale" });
  const { body } = await call(
    "GET",
    `/api/articles?${query}&pagination[pageSize]=100`,
    undefined,
    `Bearer ${cms.token}`,
  );
  return [...new Set(body.data.map((a) => a.locale))];
}

const filtered = (attribute, id) => [`${A}:list:*:${attribute}=${id}`, `${A}:list:en:${attribute}=${id}`];

test.before(async () => {
  site = await receiver();
  cms = await startStrapi({ env: { CLIENT_URL: site.url, CMS_REVALIDATE_SECRET: SECRET } });
  await login();
});

test.after(async () => {
  await cms?.stop();
  await site?.stop();
});

test("the declared types are read from the schemas by the running Strapi (pluginOptions kept)", () => {
  const line = /declared content types: (.*)\n/.exec(cms.log());
  assert.ok(line, "the start logs the declared types");
  // Exactly the types whose schema declares a site-cache block (declarations.test.js names the repository's eight).
  assert.deepEqual(line[1].split(", ").sort(), [...readDeclarations(repoContentTypes()).keys()].sort());
});

test("an article's first publish, republish, relation change and unpublish send exactly the contract's tags", async () => {
  const [newest] = await articles();
  const { results: authors } = await ok("GET", `${AUTHORS}?pageSize=10`);
  const { results: categories } = await ok("GET", `${CATEGORIES}?locale=en&pageSize=10`);
  const [cat1, cat2] = categories.map((c) => c.documentId);
  const author = authors[0].documentId;
  const { data } = await ok("POST", `${ARTICLES}?locale=en`, {
    title: "Declared types",
    slug: "rv-declared",
    category: { connect: [{ documentId: cat1, locale: "en" }] },
    author: { connect: [{ documentId: author }] },
  });
  const id = data.documentId;

  // A draft save: nothing.
  assert.deepEqual(await sentBy(() => ok("PUT", `${ARTICLES}/${id}?locale=en`, { title: "Declared types!" })), []);

  // First publish in en: the lists (en and every locale, and filtered by its category and author),
  // and its neighbour's previous/next links in publishDate:desc (it is the newest: the former
  // newest follows it).
  assert.deepEqual(await sentBy(() => ok("POST", `${ARTICLES}/${id}/actions/publish?locale=en`, {})), [
    {
      uid: "api::article.article",
      next: {
        fullPaths: ["/blog/rv-declared"],
        tags: [
          `${A}:${id}`,
          `${A}:list:*`,
          `${A}:list:en`,
          `${A}:neighbours:en:${newest.documentId}`,
          ...filtered("category", cat1),
          ...filtered("author", author),
        ].sort(),
      },
    },
  ]);
  assert.equal((await articles())[1].documentId, newest.documentId);

  // A republish with no relation or order change: its tag and path, nothing else.
  assert.deepEqual(
    await sentBy(() => ok("POST", `${ARTICLES}/${id}/actions/publish?locale=en`, { title: "Declared types (2)" })),
    [{ uid: "api::article.article", next: { fullPaths: ["/blog/rv-declared"], tags: [`${A}:${id}`] } }],
  );
  // C7: the fields whose published value changed (the title, and Strapi's timestamps, which every
  // publish moves), each in its locale and every locale's; and the other sides of its relations
  // (a category listing filtered by its articles' fields may change with any article's write).
  const field = (uid, attribute, locales = ["*", "en"]) => locales.map((l) => `cms:${uid}:field:${l}:${attribute}`);
  assert.deepEqual(fieldTags, [
    [
      ...["publishedAt", "title", "updatedAt"].flatMap((attribute) => field("api::article.article", attribute)),
      ...field("api::author.author", "articles"),
      ...field("api::category.category", "articles"),
    ].sort(),
  ]);

  // A republish that changes its category: the old and the new category's filtered lists.
  assert.deepEqual(
    await sentBy(() =>
      ok("POST", `${ARTICLES}/${id}/actions/publish?locale=en`, {
        category: { set: [{ documentId: cat2, locale: "en" }] },
      }),
    ),
    [
      {
        uid: "api::article.article",
        next: {
          fullPaths: ["/blog/rv-declared"],
          tags: [`${A}:${id}`, ...filtered("category", cat1), ...filtered("category", cat2)].sort(),
        },
      },
    ],
  );

  // Unpublish: a takedown (expire), the lists it leaves, its neighbour read before the write.
  assert.deepEqual(await sentBy(() => ok("POST", `${ARTICLES}/${id}/actions/unpublish?locale=en`, {})), [
    {
      uid: "api::article.article",
      next: {
        fullPaths: ["/blog/rv-declared"],
        tags: [
          `${A}:${id}`,
          `${A}:list:*`,
          `${A}:list:en`,
          `${A}:neighbours:en:${newest.documentId}`,
          ...filtered("category", cat2),
          ...filtered("author", author),
        ].sort(),
        expire: true,
      },
    },
  ]);
});

test("renaming an author revalidates that author's articles, and not the others'", async () => {
  const { results: authors } = await ok("GET", `${AUTHORS}?pageSize=10`);
  const [renamed, other] = authors;
  const theirs = await linkedArticles("author", renamed.documentId);
  const others = await linkedArticles("author", other.documentId);
  assert.ok(theirs.length > 0 && others.length > 0);
  const [request, ...more] = await sentBy(() =>
    ok("PUT", `${AUTHORS}/${renamed.documentId}`, { name: `${renamed.name} (renamed)` }),
  );
  assert.deepEqual(more, []);
  // C7: its changed fields (not localized: `*`), its `articles` (the other side of a relation: not
  // read, always sent), and the articles' `author` in the locales of the articles linking to it
  // (an article listing filtered by its author's name).
  const locales = ["*", ...new Set((await linkedArticleLocales(renamed.documentId)).sort())];
  assert.deepEqual(fieldTags, [
    [
      ...locales.map((l) => `${A}:field:${l}:author`),
      ...["articles", "name", "publishedAt", "updatedAt"].map((a) => `cms:api::author.author:field:*:${a}`),
    ].sort(),
  ]);
  assert.deepEqual(request, {
    uid: "api::author.author",
    next: { tags: [...theirs.map((id) => `${A}:${id}`), `cms:api::author.author:${renamed.documentId}`].sort() },
  });
  for (const id of others) assert.equal(request.next.tags.includes(`${A}:${id}`), false);
});

test("renaming a category: its tag, its page, its articles", async () => {
  const { results } = await ok("GET", `${CATEGORIES}?locale=de&pageSize=10`);
  const category = results[0];
  const theirs = await linkedArticles("category", category.documentId);
  assert.ok(theirs.length > 0);
  assert.deepEqual(
    await sentBy(() => ok("PUT", `${CATEGORIES}/${category.documentId}?locale=de`, { name: `${category.name} (neu)` })),
    [
      {
        uid: "api::category.category",
        next: {
          fullPaths: [`/de/blog/category/${category.slug}`],
          tags: [...theirs.map((id) => `${A}:${id}`), `cms:api::category.category:${category.documentId}`].sort(),
        },
      },
    ],
  );
});

test("an article added to a category from the category's form: its articles and its filtered lists", async () => {
  const { results } = await ok("GET", `${CATEGORIES}?locale=en&pageSize=10`);
  const [target, other] = results;
  const theirs = await linkedArticles("category", target.documentId);
  const moving = (await linkedArticles("category", other.documentId))[0];
  const [request, ...more] = await sentBy(() =>
    ok("PUT", `${CATEGORIES}/${target.documentId}?locale=en`, {
      articles: { connect: [{ documentId: moving, locale: "en" }] },
    }),
  );
  assert.deepEqual(more, []);
  assert.deepEqual(await linkedArticles("category", target.documentId), [...theirs, moving].sort());
  assert.deepEqual(request, {
    uid: "api::category.category",
    next: {
      fullPaths: [`/blog/category/${target.slug}`],
      tags: [
        ...[...theirs, moving].map((id) => `${A}:${id}`),
        ...filtered("category", target.documentId),
        `cms:api::category.category:${target.documentId}`,
      ].sort(),
    },
  });
});

test("the spec's rows: navbar and footer by their tag, a page and a redirect by path", async () => {
  // One write at a time: writes close together go to the site as one batch (batch.js).
  assert.deepEqual(
    await sentBy(() =>
      ok("PUT", "/content-manager/single-types/api::navbar.navbar?locale=en", { links: [{ label: "Home", url: "/" }] }),
    ),
    [{ uid: "api::navbar.navbar", next: { tags: ["cms:api::navbar.navbar"] } }],
  );
  assert.deepEqual(
    await sentBy(() =>
      ok("PUT", "/content-manager/single-types/api::footer.footer?locale=de", { note: "© Acme GmbH (neu)" }),
    ),
    [{ uid: "api::footer.footer", next: { tags: ["cms:api::footer.footer"] } }],
  );

  const { data: page } = await ok("POST", `${PAGES}?locale=en`, { title: "Leaf", slug: "rv-leaf" });
  const P = "cms:api::page.page";
  assert.deepEqual(await sentBy(() => ok("POST", `${PAGES}/${page.documentId}/actions/publish?locale=en`, {})), [
    {
      uid: "api::page.page",
      next: { fullPaths: ["/rv-leaf"], tags: [`${P}:${page.documentId}`, `${P}:list:*`, `${P}:list:en`].sort() },
    },
  ]);
  assert.deepEqual(
    await sentBy(() => ok("POST", `${PAGES}/${page.documentId}/actions/publish?locale=en`, { title: "Leaf 2" })),
    [{ uid: "api::page.page", next: { fullPaths: ["/rv-leaf"], tags: [`${P}:${page.documentId}`] } }],
  );
  assert.deepEqual(await sentBy(() => ok("DELETE", `${PAGES}/${page.documentId}?locale=en`)), [
    {
      uid: "api::page.page",
      next: {
        fullPaths: ["/rv-leaf"],
        tags: [`${P}:${page.documentId}`, `${P}:list:*`, `${P}:list:en`].sort(),
        expire: true,
      },
    },
  ]);

  const R = "cms:api::redirect.redirect";
  const { data: redirect } = await ok("POST", REDIRECTS, { source: "/en/rv-from", destination: "/jobs" });
  const id = redirect.documentId;
  assert.deepEqual(await sentBy(() => ok("POST", `${REDIRECTS}/${id}/actions/publish`, {})), [
    { uid: "api::redirect.redirect", next: { fullPaths: ["/en/rv-from"], tags: [`${R}:${id}`, `${R}:list:*`].sort() } },
  ]);
  assert.deepEqual(await sentBy(() => ok("POST", `${REDIRECTS}/${id}/actions/publish`, { source: "/en/rv-from-2" })), [
    // its source is its path field: a changed one changes the list (a lookup by source finds another)
    {
      uid: "api::redirect.redirect",
      next: { fullPaths: ["/en/rv-from", "/en/rv-from-2"], tags: [`${R}:${id}`, `${R}:list:*`].sort() },
    },
  ]);
});

/** The read-only token as the admin sees it: `{ id, type, permissions (sorted) }`. */
async function readOnlyToken() {
  const { data } = await ok("GET", "/admin/api-tokens");
  const token = data.find((t) => t.name === "frontend-readonly");
  if (!token) return null;
  const { data: full } = await ok("GET", `/admin/api-tokens/${token.id}`);
  return { id: full.id, type: full.type, permissions: [...full.permissions].sort() };
}

/**
 * The token's permissions the declarations give (declarations.test.js checks the derivation), and
 * the site's search (src/read-only-token.js).
 */
const DERIVED = [...tokenPermissions(readDeclarations(repoContentTypes())), "plugin::site-search.search.query"].sort();

test("the read-only token: the declarations' permissions, put back on a start without the seed", async () => {
  const token = await readOnlyToken();
  assert.deepEqual(token, { id: token.id, type: "custom", permissions: DERIVED });
  const articlesRead = await call("GET", "/api/articles?locale=en", undefined, `Bearer ${cms.token}`);
  assert.equal(articlesRead.status, 200);
  assert.equal((await call("GET", "/api/users", undefined, `Bearer ${cms.token}`)).status, 403);

  // Drifted (an admin removed the categories and added the users): put back on the next start,
  // which runs without the development seed.
  await ok("PUT", `/admin/api-tokens/${token.id}`, {
    permissions: [...DERIVED.filter((a) => !a.startsWith("api::category")), "plugin::users-permissions.user.find"],
  });
  assert.notDeepEqual((await readOnlyToken()).permissions, DERIVED);
  await cms.stop({ keep: true });
  cms = await startStrapi({ dir: cms.dir, env: { CLIENT_URL: site.url, CMS_SEED_DEMO: "false" } });
  await login();
  assert.deepEqual(await readOnlyToken(), { id: token.id, type: "custom", permissions: DERIVED });
  assert.match(cms.log(), /\[read-only token\] "frontend-readonly": permissions set to api::article\.article\.find, /);
});

test("production: no token is logged as an error; the one an operator creates gets the declarations' permissions", async () => {
  const production = { NODE_ENV: "production", CMS_SEED_DEMO: "false", CLIENT_URL: site.url };
  let prod = await startStrapi({ env: production, waitForToken: false });
  try {
    assert.match(
      prod.log(),
      /error.*\[read-only token\] there is no API token named "frontend-readonly": the front end cannot read the CMS\. Create a Custom token/,
    );
    const post = async (url, apiPath, body, auth) =>
      (
        await fetch(`${url}${apiPath}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
          body: JSON.stringify(body),
        })
      ).json();
    const registered = await post(prod.url, "/admin/register-admin", {
      email: "ops@example.com",
      password: "Operator12345",
      firstname: "Ops",
      lastname: "Person",
    });
    // The operator's one-time step (docs/operations.md): a Custom token with that name, any permissions.
    const created = await post(
      prod.url,
      "/admin/api-tokens",
      { name: "frontend-readonly", type: "custom", lifespan: null, permissions: ["api::page.page.find"] },
      registered.data.token,
    );
    const key = created.data.accessKey;
    assert.equal(
      (await fetch(`${prod.url}/api/articles`, { headers: { authorization: `Bearer ${key}` } })).status,
      403,
    );
    await prod.stop({ keep: true });
    prod = await startStrapi({ dir: prod.dir, env: production, waitForToken: false });
    assert.match(prod.log(), /\[read-only token\] "frontend-readonly": permissions set to /);
    for (const [apiPath, status] of [
      ["/api/articles", 200],
      ["/api/authors", 200],
      ["/api/navbar", 404], // readable, and empty: nobody filled it in
      ["/api/i18n/locales", 200],
      ["/api/users", 403],
    ])
      assert.equal(
        (await fetch(`${prod.url}${apiPath}`, { headers: { authorization: `Bearer ${key}` } })).status,
        status,
        apiPath,
      );
  } finally {
    await prod.stop();
  }
});
