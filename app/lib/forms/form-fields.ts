/**
 * The names and bounds of a content form (a `sections.form` on a page, docs/forms.md). Pure: the
 * section's component renders these names, the action (form-post.server.ts) reads them.
 */

/** A typed field is posted as `field_<name>`: no editor's name can meet the form's own fields. */
export const FIELD_PREFIX = "field_";
/** The consent checkbox (present when the editor gave a consent text); posted as `yes`. */
export const CONSENT_FIELD = "consent";
/** Which form section of the page was sent: its component id in the CMS. */
export const SECTION_FIELD = "formSection";

export type FormFieldType = "text" | "email" | "textarea" | "select" | "checkbox";

/** The longest value of each type (the CMS checks the same: cms/src/plugins/forms/server/services/field-rules.js). */
export const FIELD_MAX_LENGTH: Record<FormFieldType, number> = {
  text: 200,
  email: 254,
  textarea: 5000,
  select: 200,
  checkbox: 3,
};

/** At most this many fields are rendered and read (the CMS allows 20 per form). */
export const MAX_FIELDS = 20;

/** The largest post read: 20 long texts of 5,000 characters would not fit, a real form does. */
export const FORM_BODY_LIMIT = 32 * 1024;

/** What the bot check's token of a form is issued for: the page's address and the section. */
export const formTokenKey = (pagePath: string, sectionId: number) => `content-form:${pagePath}#${sectionId}`;
