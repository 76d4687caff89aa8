import {
  data,
  redirect,
  UNSAFE_ErrorResponseImpl as ErrorResponseImpl,
  type RouterContextProvider,
} from "react-router";

import type { FormState } from "../../components/sections/types.ts";
import { fieldsOf, readGuardedForm } from "../auth/form-action.server.ts";
import { toAuthError } from "../auth/errors.server.ts";
import { findPage } from "../cms/content.server.ts";
import { CmsError } from "../cms/errors.server.ts";
import { prepareForm, resolveSectionLink, type CmsSection } from "../cms/sections.server.ts";
import { t } from "../i18n/messages.ts";
import { parseLocalePath } from "../locale-path.ts";
import { localeConfigOf } from "../locales.server.ts";
import { NO_STORE_ANYWHERE } from "../no-store.ts";
import { cmsContext, configContext, logContext } from "../request-context.server.ts";
import { CONSENT_FIELD, FIELD_PREFIX, FORM_BODY_LIMIT, formTokenKey, SECTION_FIELD } from "./form-fields.ts";
import { storeSubmission } from "./submit.server.ts";
import { checkForm } from "./validate.ts";

type FormSectionData = Extract<CmsSection, { __component: "sections.form" }>;

/** The action's data: what the page's form shows on the answer (routes/cms-page.tsx merges it in). */
export interface FormPostData {
  form: FormState;
}

/**
 * The post of a content form (docs/forms.md) to its page's own address: the auth forms' guards
 * (readGuardedForm: origin, rate limit `content-form`, a bounded body, the bot check with a token
 * for this page and section), then the page's published form section, the fields checked, the
 * submission stored in the CMS (which mails it). The answer is never stored by any cache: the
 * page again with the thank-you, or with the messages and what was typed (4xx, 503), or a 303 to
 * the editor's thank-you page. A post for no form of the page is a 400; a post to a page without
 * a form (or to no page) is React Router's 405, as before.
 */
export async function handleFormPost(request: Request, context: Readonly<RouterContextProvider>, url: URL) {
  const env = context.get(configContext);
  const log = context.get(logContext);
  const config = localeConfigOf(env);
  const target = parseLocalePath(url.pathname, config);
  const locale = target?.locale ?? config.defaultLocale;
  const answer = (form: FormState, status: number, headers: Record<string, string> = {}) =>
    data<FormPostData>({ form }, { status, headers: { ...NO_STORE_ANYWHERE, ...headers } });

  // A page without a form takes no post: React Router's own 405, as before forms existed. Read
  // first (through the data cache, as the GET's render reads it), so a refusal names a form.
  const page = target
    ? await findPage(context.get(cmsContext), target.fullPath, target.locale).catch((error: unknown) => {
        if (!(error instanceof CmsError)) throw error;
        throw data(null, { status: 503, headers: NO_STORE_ANYWHERE });
      })
    : null;
  const forms = (page?.sections ?? []).filter((s): s is FormSectionData => s.__component === "sections.form");
  if (!page || forms.length === 0) {
    throw new ErrorResponseImpl(405, "Method Not Allowed", new Error(`${url.pathname} has no form to post to`), true);
  }

  let fields: Record<string, string>;
  try {
    fields = await readGuardedForm(request, context, {
      budget: "content-form",
      bodyLimit: FORM_BODY_LIMIT,
      formPath: (posted) => formTokenKey(url.pathname, Number(posted[SECTION_FIELD])),
      botCheck: true,
    });
  } catch (error) {
    const failed = toAuthError(error, log);
    if (!failed) throw error;
    const posted = fieldsOf(error) ?? {};
    return answer(
      {
        sectionId: Number(posted[SECTION_FIELD]),
        status: "refused",
        message: failed.answerIn(locale).message,
        values: typedValues(posted),
        errors: {},
      },
      failed.statusCode,
      failed.answerHeaders,
    );
  }

  const sectionId = Number(fields[SECTION_FIELD]);
  const section = forms.find((form) => form.id === sectionId);
  if (!section) {
    throw data(
      { title: "Bad request", message: "This page has no such form." },
      { status: 400, headers: NO_STORE_ANYWHERE },
    );
  }

  const { values, errors } = checkForm(
    prepareForm(section, { base: null, locale, config, imagesBefore: 0, log }),
    fields,
    locale,
  );
  if (Object.keys(errors).length > 0) {
    return answer({ sectionId, status: "invalid", message: t(locale, "form.error.summary"), values, errors }, 400);
  }

  try {
    await storeSubmission(env, { page: page.documentId, locale: page.locale, section: sectionId, values });
  } catch (error) {
    if (!(error instanceof CmsError)) throw error;
    log.error(`[forms] could not store a submission of "${section.formName}" on ${url.pathname}: ${error.message}`);
    // A CMS that timed out may still store it (bench/README.md, "Forms"): not "nothing was saved".
    const message = t(locale, error.timedOut ? "form.error.cmsSlow" : "form.error.cmsDown");
    return answer({ sectionId, status: "refused", message, values, errors: {} }, 503);
  }

  const thanks = section.successPath
    ? resolveSectionLink({ label: "", url: section.successPath }, locale, config, log)
    : null;
  if (thanks?.kind === "internal") throw redirect(thanks.href, { status: 303, headers: NO_STORE_ANYWHERE });
  return answer(
    { sectionId, status: "sent", message: section.successMessage ?? t(locale, "form.sent"), values: {}, errors: {} },
    200,
  );
}

/** The typed values of a refused post, by field name, to put back into the form. */
function typedValues(posted: Record<string, string>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(posted)) {
    if (name.startsWith(FIELD_PREFIX)) values[name.slice(FIELD_PREFIX.length)] = value.slice(0, 5000);
  }
  if (posted[CONSENT_FIELD] === "yes") values[CONSENT_FIELD] = "yes";
  return values;
}
