import { until } from "./wait.ts";

/**
 * Editing content in the real Strapi the way the admin panel does: an admin login, then
 * the content-manager API (save, then publish).
 */
export class StrapiAdmin {
  private constructor(
    readonly cmsUrl: string,
    private readonly token: string,
  ) {}

  private static readonly sessions = new Map<string, Promise<StrapiAdmin>>();

  /** One admin login per CMS and test worker: Strapi rate-limits admin logins per IP. */
  static login(
    cmsUrl: string,
    email = process.env.CMS_ADMIN_EMAIL ?? "admin@example.com",
    password = process.env.CMS_ADMIN_PASSWORD ?? "Admin12345",
  ): Promise<StrapiAdmin> {
    const key = `${cmsUrl} ${email}`;
    let session = StrapiAdmin.sessions.get(key);
    if (!session) {
      session = StrapiAdmin.freshLogin(cmsUrl, email, password);
      session.catch(() => StrapiAdmin.sessions.delete(key));
      StrapiAdmin.sessions.set(key, session);
    }
    return session;
  }

  private static async freshLogin(cmsUrl: string, email: string, password: string): Promise<StrapiAdmin> {
    const response = await fetch(`${cmsUrl}/admin/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    if (!response.ok) throw new Error(`Admin login failed: ${response.status} ${await response.text()}`);
    const { data } = (await response.json()) as { data: { token: string } };
    return new StrapiAdmin(cmsUrl, data.token);
  }

  /**
   * Any admin API call with this admin's token (content-manager paths, for instance): its JSON, or
   * null for an empty answer (the preview URL of a type with no Preview button: 204).
   */
  async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.cmsUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    const text = await response.text();
    return text ? (JSON.parse(text) as unknown) : null;
  }

  /**
   * Waits until the CMS has no revalidation being collected or sent (GET /site-cache/failures:
   * `meta.inFlight` 0): publishes close together go to the site as one batch, up to a second after
   * the first, so a test that counts what the site receives starts from here, or an earlier write's
   * batch lands in its window.
   */
  async revalidationsSettled(): Promise<void> {
    await until(
      "the CMS's revalidations to settle",
      async () => ((await this.call("GET", "/site-cache/failures")) as { meta: { inFlight: number } }).meta.inFlight,
      (inFlight) => inFlight === 0,
    );
  }

  /**
   * Replaces an uploaded file's bytes, as the media library's "Replace media" does (multipart
   * POST /upload?id=…): Strapi keeps its URL and hash. Returns the file as Strapi now has it.
   */
  async replaceFile(id: number, file: { bytes: Uint8Array; name: string; type: string }): Promise<{ url: string }> {
    const form = new FormData();
    form.append("files", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    form.append("fileInfo", JSON.stringify({ name: file.name }));
    const response = await fetch(`${this.cmsUrl}/upload?id=${id}`, {
      method: "POST",
      headers: { authorization: `Bearer ${this.token}` },
      body: form,
    });
    if (!response.ok) throw new Error(`Replacing file ${id}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { url: string };
  }

  /**
   * Uploads a new file to the media library, as an editor does (multipart POST /upload), with
   * `alternativeText` or none. Returns its id and name.
   */
  async uploadFile(
    file: { bytes: Uint8Array; name: string; type: string },
    alternativeText: string | null = null,
  ): Promise<{ id: number; name: string }> {
    const form = new FormData();
    form.append("files", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    form.append("fileInfo", JSON.stringify({ name: file.name, alternativeText }));
    const response = await fetch(`${this.cmsUrl}/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${this.token}` },
      body: form,
    });
    if (!response.ok) throw new Error(`Uploading ${file.name}: ${response.status} ${await response.text()}`);
    const [uploaded] = (await response.json()) as Array<{ id: number; name: string }>;
    return uploaded!;
  }

  /** The documentId of the page at fullPath in locale (draft or published). */
  async pageDocumentId(fullPath: string, locale: string): Promise<string> {
    const query = new URLSearchParams({ locale, "filters[fullPath][$eq]": fullPath });
    const { results } = (await this.call("GET", `/content-manager/collection-types/api::page.page?${query}`)) as {
      results: Array<{ documentId: string }>;
    };
    const documentId = results[0]?.documentId;
    if (!documentId) throw new Error(`No page at ${fullPath} (${locale})`);
    return documentId;
  }

  /** Saves fields of a page and publishes it, as an editor does. */
  async updateAndPublishPage(documentId: string, locale: string, fields: Record<string, unknown>): Promise<void> {
    const base = `/content-manager/collection-types/api::page.page/${documentId}`;
    await this.call("PUT", `${base}?locale=${locale}`, fields);
    await this.call("POST", `${base}/actions/publish?locale=${locale}`, {});
  }

  /**
   * A new page at `/<slug>` (en) published with the title `published`, whose draft then gets the
   * title `draft` (and `draftFields`), saved but not published: what a preview shows. Returns its documentId.
   */
  async pageWithDraft(
    slug: string,
    published: string,
    draft: string,
    draftFields: Record<string, unknown> = {},
  ): Promise<string> {
    const base = "/content-manager/collection-types/api::page.page";
    const { data } = (await this.call("POST", `${base}?locale=en`, { title: published, slug })) as {
      data: { documentId: string };
    };
    await this.call("POST", `${base}/${data.documentId}/actions/publish?locale=en`, {});
    await this.call("PUT", `${base}/${data.documentId}?locale=en`, { ...draftFields, title: draft });
    return data.documentId;
  }

  /** Blocks (or unblocks) an end user, as an administrator does in the admin panel. */
  /** The admin's content-manager path of the end user with this email. */
  private async userPath(email: string): Promise<string> {
    const uid = "plugin::users-permissions.user";
    const query = new URLSearchParams({ "filters[$and][0][email][$eq]": email });
    const { results } = (await this.call("GET", `/content-manager/collection-types/${uid}?${query}`)) as {
      results: Array<{ documentId: string }>;
    };
    const documentId = results[0]?.documentId;
    if (!documentId) throw new Error(`No CMS user ${email}`);
    return `/content-manager/collection-types/${uid}/${documentId}`;
  }

  async setUserBlocked(email: string, blocked: boolean): Promise<void> {
    await this.call("PUT", await this.userPath(email), { blocked });
  }

  /** Marks an end user's email as (not) confirmed, as an administrator does in the admin panel. */
  async setUserConfirmed(email: string, confirmed: boolean): Promise<void> {
    await this.call("PUT", await this.userPath(email), { confirmed });
  }

  /** Deletes the end user, as an administrator does in the admin panel. */
  async deleteUser(email: string): Promise<void> {
    await this.call("DELETE", await this.userPath(email));
  }

  /** Saves fields of a single type with draft & publish (the Error page) and publishes it, as an editor does. */
  async updateAndPublishSingleType(uid: string, locale: string, fields: Record<string, unknown>): Promise<void> {
    const base = `/content-manager/single-types/${uid}`;
    await this.call("PUT", `${base}?locale=${locale}`, fields);
    await this.call("POST", `${base}/actions/publish?locale=${locale}`, fields);
  }

  /**
   * Replaces the links of a single type (navbar, footer: no draft & publish): typed URLs, or links
   * as `links()` read them (references, a navbar entry's children).
   */
  async setLinks(
    uid: "api::navbar.navbar" | "api::footer.footer",
    locale: string,
    links: Array<{ label: string; url?: string | null } & Record<string, unknown>>,
  ) {
    await this.call("PUT", `/content-manager/single-types/${uid}?locale=${locale}`, { links });
  }

  /**
   * The links of the navbar or the footer in `locale` as they are, in the form setLinks writes
   * back: a test that changes them puts these back, references and drop-downs included
   * (docs/links.md).
   */
  async links(uid: "api::navbar.navbar" | "api::footer.footer", locale: string): Promise<WritableLink[]> {
    const { data } = (await this.call("GET", `/content-manager/single-types/${uid}?locale=${locale}`)) as {
      data: { links?: ReadLink[] };
    };
    return (data.links ?? []).map(writable);
  }
}

interface Reference {
  documentId: string;
  locale: string;
}
interface ReadLink {
  label: string;
  url?: string | null;
  page?: Reference | null;
  article?: Reference | null;
  children?: ReadLink[];
}
export interface WritableLink extends Record<string, unknown> {
  label: string;
  url: string | null;
}

const connect = (target: Reference | null | undefined) =>
  target ? { connect: [{ documentId: target.documentId, locale: target.locale }] } : undefined;

function writable(link: ReadLink): WritableLink {
  return {
    label: link.label,
    url: link.url ?? null,
    ...(link.page ? { page: connect(link.page) } : {}),
    ...(link.article ? { article: connect(link.article) } : {}),
    ...(link.children ? { children: link.children.map(writable) } : {}),
  };
}
