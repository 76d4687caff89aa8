import { describe, expect, it } from "vitest";

import type { FormSection } from "../../components/sections/types.ts";
import { checkForm } from "./validate.ts";

const section: Pick<FormSection, "fields" | "consentText"> = {
  fields: [
    { name: "name", label: "Name", type: "text", required: true, options: [], errorMessage: null },
    { name: "email", label: "Email", type: "email", required: true, options: [], errorMessage: null },
    { name: "topic", label: "Topic", type: "select", required: false, options: ["Jobs", "Press"], errorMessage: null },
    { name: "message", label: "Message", type: "textarea", required: true, options: [], errorMessage: "Tell us more." },
    { name: "news", label: "News", type: "checkbox", required: false, options: [], errorMessage: null },
  ],
  consentText: "I agree",
};

describe("checkForm", () => {
  it("accepts a complete post, trimmed, ignoring fields the form does not have", () => {
    const { values, errors } = checkForm(
      section as FormSection,
      {
        field_name: "  Ada ",
        field_email: "ada@example.com",
        field_topic: "Jobs",
        field_message: "Hello",
        field_news: "yes",
        field_admin: "true",
        consent: "yes",
      },
      "en",
    );
    expect(errors).toEqual({});
    expect(values).toEqual({
      name: "Ada",
      email: "ada@example.com",
      topic: "Jobs",
      message: "Hello",
      news: "yes",
      consent: "yes",
    });
  });

  it("names each wrong field in the page's locale, the editor's message first", () => {
    const { errors, values } = checkForm(
      section as FormSection,
      { field_email: "not an address", field_topic: "Other", field_name: "x".repeat(201), field_news: "on" },
      "de",
    );
    expect(errors).toEqual({
      name: "Bitte verwenden Sie höchstens 200 Zeichen.",
      email: "Bitte geben Sie eine E-Mail-Adresse wie name@example.com ein.",
      topic: "Bitte wählen Sie eine der Möglichkeiten.",
      message: "Tell us more.",
      consent: "Bitte stimmen Sie zu, um das Formular zu senden.",
    });
    // Kept to put back into the form, within the field's bound; a checkbox is "yes" or nothing.
    expect(values.name).toHaveLength(200);
    expect(values.news).toBe("");
  });

  it("leaves optional fields empty without a message, and asks no consent of a form without one", () => {
    const { errors } = checkForm(
      { ...section, consentText: null } as FormSection,
      { field_name: "Ada", field_email: "ada@example.com", field_message: "Hi" },
      "en",
    );
    expect(errors).toEqual({});
  });
});
