/**
 * Admin users of the real Strapi with one of its default roles (`strapi-editor`, `strapi-author`),
 * made the way an invitation does: the Super Admin invites, the invitee registers. Returns the new
 * admin's token (a Bearer for the admin API: /upload, /content-manager/...).
 */
export async function adminWithRole(
  cmsUrl: string,
  superAdminToken: string,
  roleCode: "strapi-editor" | "strapi-author",
  name: string,
): Promise<string> {
  const call = async (method: string, path: string, body: unknown, token?: string) => {
    const response = await fetch(`${cmsUrl}${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as { data: any };
  };
  const { data: roles } = await call("GET", "/admin/roles", undefined, superAdminToken);
  const role = (roles as Array<{ id: number; code: string }>).find((candidate) => candidate.code === roleCode);
  if (!role) throw new Error(`No admin role ${roleCode}`);
  const { data: invited } = await call(
    "POST",
    "/admin/users",
    { email: `${name.toLowerCase()}@example.com`, firstname: name, lastname: "Test", roles: [role.id] },
    superAdminToken,
  );
  const { data: registered } = await call("POST", "/admin/register", {
    registrationToken: invited.registrationToken,
    userInfo: { firstname: name, lastname: "Test", password: `${name}Pass12345` },
  });
  return registered.token as string;
}

/** The Super Admin's token (the seeded admin of the test CMS). */
export async function superAdminToken(cmsUrl: string): Promise<string> {
  const response = await fetch(`${cmsUrl}/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@example.com", password: "Admin12345" }),
  });
  if (!response.ok) throw new Error(`Admin login failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: { token: string } }).data.token;
}
