/**
 * Posting the auth forms as a browser does: open the page, then post the form's fields with the
 * bot check's form token the page gave (sign-in, register, forgot-password: docs/decisions/0021).
 */

/**
 * The bot check's hidden field of the page at `pagePath` (`/de/register`): `{ formToken }`, or
 * nothing for a page whose form has no bot check (or that answers without a form: a 404).
 */
export async function formTokenOf(base: string, pagePath: string): Promise<Record<string, string>> {
  const response = await fetch(`${base}${pagePath}`, { redirect: "manual" });
  const token = /<input type="hidden" name="formToken" value="([^"]+)"/.exec(await response.text())?.[1];
  return token ? { formToken: token } : {};
}

/**
 * Opens `pagePath` (without its query), then posts `fields` to it as a form from the site's
 * origin, with the page's form token (`headers` add to or replace the defaults; an empty value
 * leaves that header out). The answer, redirects not followed.
 */
export async function postAuthForm(
  base: string,
  pagePath: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const token = await formTokenOf(base, pagePath.split("?")[0] ?? pagePath);
  const all: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", origin: base, ...headers };
  return fetch(`${base}${pagePath}`, {
    method: "POST",
    headers: Object.fromEntries(Object.entries(all).filter(([, value]) => value !== "")),
    body: new URLSearchParams({ ...token, ...fields }),
    redirect: "manual",
  });
}
