/**
 * The CMS's admin API as its admin users call it: the development Super Admin's login, admin users
 * with a given role (registered the way an invitation link does), and calls with their tokens.
 */

export type Json = Record<string, any>;

export interface AdminAnswer {
  status: number;
  body: Json;
}

/** One admin API call; `token` an admin's JWT (none: anonymous). */
export async function adminCall(
  cmsUrl: string,
  method: string,
  apiPath: string,
  { body, token }: { body?: unknown; token?: string } = {},
): Promise<AdminAnswer> {
  const response = await fetch(`${cmsUrl}${apiPath}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Json };
}

/** An admin call that must succeed (2xx): its body. */
export async function adminOk(cmsUrl: string, method: string, apiPath: string, token: string, body?: unknown) {
  const result = await adminCall(cmsUrl, method, apiPath, { body, token });
  if (result.status >= 300) throw new Error(`${method} ${apiPath}: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body;
}

/** The development Super Admin's token (the seed's admin@example.com). */
export async function superAdminToken(cmsUrl: string): Promise<string> {
  const login = await adminCall(cmsUrl, "POST", "/admin/login", {
    body: { email: "admin@example.com", password: "Admin12345" },
  });
  if (login.status !== 200) throw new Error(`admin login: ${login.status} ${JSON.stringify(login.body)}`);
  return login.body.data.token as string;
}

/** The id of the admin role with this code (strapi-editor, strapi-author, ...). */
export async function adminRoleId(cmsUrl: string, superToken: string, code: string): Promise<number> {
  const { data } = await adminOk(cmsUrl, "GET", "/admin/roles", superToken);
  const role = (data as Json[]).find((candidate) => candidate.code === code);
  if (!role) throw new Error(`no admin role ${code}`);
  return role.id as number;
}

/**
 * A new admin user with the role (its id, or its code: strapi-editor, strapi-author), invited by
 * the Super Admin and registered; its token.
 */
export async function adminWithRole(cmsUrl: string, superToken: string, role: number | string, name: string) {
  const roleId = typeof role === "number" ? role : await adminRoleId(cmsUrl, superToken, role);
  const { data: invited } = await adminOk(cmsUrl, "POST", "/admin/users", superToken, {
    email: `${name.toLowerCase()}@example.com`,
    firstname: name,
    lastname: "Test",
    roles: [roleId],
  });
  const registered = await adminCall(cmsUrl, "POST", "/admin/register", {
    body: {
      registrationToken: invited.registrationToken,
      userInfo: { firstname: name, lastname: "Test", password: `${name}Pass12345` },
    },
  });
  if (registered.status !== 200) throw new Error(`register ${name}: ${registered.status}`);
  return registered.body.data.token as string;
}

/**
 * Every content type Strapi has, as the Content Manager lists them (hidden ones included), in the
 * shape cms/src/admin-grants.js reads: whether the Content Manager shows it.
 */
export async function adminContentTypes(cmsUrl: string, superToken: string): Promise<Record<string, Json>> {
  const { data } = await adminOk(cmsUrl, "GET", "/content-manager/content-types", superToken);
  return Object.fromEntries(
    (data as Json[]).map((type) => [
      type.uid,
      { pluginOptions: { "content-manager": { visible: type.isDisplayed === true } } },
    ]),
  );
}

/** Every admin role's grants, each with its role's code. */
export async function adminRoleGrants(cmsUrl: string, superToken: string) {
  const { data: roles } = await adminOk(cmsUrl, "GET", "/admin/roles", superToken);
  const held: Array<{ role: string; grant: Json }> = [];
  for (const role of roles as Json[]) {
    const { data } = await adminOk(cmsUrl, "GET", `/admin/roles/${role.id}/permissions`, superToken);
    for (const grant of data as Json[]) held.push({ role: role.code as string, grant });
  }
  return held;
}
