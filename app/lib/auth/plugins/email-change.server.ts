import type { BetterAuthPlugin } from "better-auth";
import { createAuthEndpoint } from "better-auth/api";

import type { CmsUsers } from "../cms-users.server.ts";
import { confirmEmailChangeSchema, requestEmailChangeSchema } from "../email-change-schemas.ts";
import { AuthError, cmsUnavailable } from "../errors.server.ts";
import { schemaBody } from "../input.server.ts";
import type { AccountLockout } from "../rate-limit.server.ts";
import { withPasswordLockout } from "../reauth-lockout.server.ts";
import type { SessionRevocations } from "../revocations.server.ts";
import { toPublicUser } from "../session-user.ts";
import { readCheckedSession } from "./cms-session.server.ts";
import { startCmsSession } from "./start-session.server.ts";

/**
 * The change of email (docs/decisions/0020-account-lifecycle.md, "Change of email"), against the
 * CMS's account-sessions routes:
 * - POST /request-email-change-cms `{ email, currentPassword?, locale? }` (the /account form): the
 *   CMS mails the new address a link to /confirm-email-change, after the password (or, for an
 *   account without one, a provider sign-in of the last 5 minutes). The same answer whether the
 *   address is free or taken. Wrong passwords count per account (reauth-lockout.server.ts).
 * - POST /confirm-email-change-cms `{ token }` (the button of /confirm-email-change): the email
 *   changes and every session of the user ends; a browser signed in as that user gets a new
 *   session (a privilege change, ASVS 7.2.4), any other browser keeps what it has.
 */

const REQUESTED_MESSAGE =
  "Check the new address's inbox: if it can be used, we have sent it a link to confirm the change. " +
  "Your email address stays as it is until the link is opened and confirmed, within an hour.";

export function emailChange(cms: () => CmsUsers, revocations: SessionRevocations, lockout?: AccountLockout) {
  return {
    id: "email-change",
    endpoints: {
      requestEmailChangeCms: createAuthEndpoint(
        "/request-email-change-cms",
        schemaBody(requestEmailChangeSchema),
        async (ctx) => {
          const check = await readCheckedSession(ctx, cms(), revocations);
          if (check.state === "invalid") throw new AuthError("UNAUTHORIZED");
          if (check.state === "unknown") throw cmsUnavailable(check.error);
          const { email, locale } = ctx.body;
          const password = ctx.body.currentPassword || undefined;
          await withPasswordLockout(lockout, check.stored.user.id, password, () =>
            cms().requestEmailChange(check.cmsJWT, email, password, locale),
          );
          return ctx.json({ ok: true, message: REQUESTED_MESSAGE });
        },
      ),

      confirmEmailChangeCms: createAuthEndpoint(
        "/confirm-email-change-cms",
        schemaBody(confirmEmailChangeSchema),
        async (ctx) => {
          // Signed in or not: the link may be opened in any browser. A session of the same user is
          // replaced by a new one; the CMS ignores the JWT of anyone else.
          const check = await readCheckedSession(ctx, cms(), revocations);
          const jwt = check.state === "invalid" ? undefined : check.cmsJWT;
          const result = await cms().confirmEmailChange(ctx.body.token, jwt);
          if (!result.auth || check.state === "invalid")
            return ctx.json({ ok: true, email: result.email, signedIn: false });
          const { stored } = check;
          const user = await startCmsSession(
            ctx,
            { ...result.auth, authAt: stored.user.authAt },
            stored.user.provider ?? "credentials",
            stored.user.oauthSubject ?? undefined,
          );
          // The CMS already refuses the old session's JWT; a copy of its cookie is refused here too.
          await revocations.revoke(stored.session.id, new Date(stored.session.expiresAt));
          return ctx.json({ ok: true, email: result.email, signedIn: true, user: toPublicUser(user) });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}
