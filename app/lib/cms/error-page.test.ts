import { describe, expect, it } from "vitest";

import { errorPageText, errorPayloadText, FALLBACK_ERROR_TEXT } from "./error-page.ts";

const cms = {
  notFoundTitle: "Nothing here",
  notFoundText: "This address leads nowhere. Try the menu.",
  errorTitle: "Oops",
  errorText: "We broke something. Try again soon.",
};

describe("errorPageText: the CMS's words, or the site's own", () => {
  it("takes the CMS's title and text for each kind", () => {
    expect(errorPageText("not-found", cms, "en")).toEqual({
      title: "Nothing here",
      message: "This address leads nowhere. Try the menu.",
    });
    expect(errorPageText("error", cms, "de")).toEqual({
      title: "Oops",
      message: "We broke something. Try again soon.",
    });
  });

  it("falls back to the built-in words of the locale when the CMS gave none (down, or no entry)", () => {
    expect(errorPageText("not-found", null, "en")).toEqual(FALLBACK_ERROR_TEXT.en!["not-found"]);
    expect(errorPageText("not-found", null, "de")).toEqual({
      title: "Seite nicht gefunden",
      message: "Unter dieser Adresse gibt es keine Seite.",
    });
    expect(errorPageText("error", null, "de").title).toBe("Etwas ist schiefgelaufen");
  });

  it("uses English for a locale it has no words in", () => {
    expect(errorPageText("error", null, "fr")).toEqual(FALLBACK_ERROR_TEXT.en!.error);
  });

  it("falls back for title and text together when either is missing or blank: never half CMS, half built-in", () => {
    expect(errorPageText("not-found", { ...cms, notFoundText: "  " }, "de")).toEqual(
      FALLBACK_ERROR_TEXT.de!["not-found"],
    );
    expect(errorPageText("error", { ...cms, errorTitle: null }, "en")).toEqual(FALLBACK_ERROR_TEXT.en!.error);
    expect(errorPageText("not-found", { errorTitle: "x", errorText: "y" }, "en")).toEqual(
      FALLBACK_ERROR_TEXT.en!["not-found"],
    );
  });

  it("trims what the editor typed", () => {
    expect(errorPageText("not-found", { notFoundTitle: " Gone \n", notFoundText: " Really. " }, "en")).toEqual({
      title: "Gone",
      message: "Really.",
    });
  });
});

describe("errorPayloadText", () => {
  it("reads title and message of a thrown payload, ignoring anything else", () => {
    expect(errorPayloadText({ title: "T", message: "M", other: 1 })).toEqual({ title: "T", message: "M" });
    expect(errorPayloadText({ message: "M" })).toEqual({ message: "M" });
    expect(errorPayloadText({ title: 3 })).toEqual({});
    expect(errorPayloadText("text")).toEqual({});
    expect(errorPayloadText(null)).toEqual({});
  });
});
