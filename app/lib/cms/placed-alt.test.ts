import { describe, expect, it } from "vitest";

import { placedImage, withPlacedAlt } from "./placed-alt.ts";

const file = { url: "/uploads/a.png", alternativeText: "From the library" };

describe("withPlacedAlt", () => {
  it("the placement's text wins; blank falls back to the file's; decorative is empty", () => {
    expect(withPlacedAlt(file, " Placed ")?.alternativeText).toBe("Placed");
    expect(withPlacedAlt(file, "  ")?.alternativeText).toBe("From the library");
    expect(withPlacedAlt(file, null)?.alternativeText).toBe("From the library");
    expect(withPlacedAlt(file, "Placed", true)?.alternativeText).toBe("");
    expect(withPlacedAlt(null, "Placed")).toBeNull();
  });

  it("placedImage folds a section's fields into its image and drops them", () => {
    expect(placedImage({ heading: "H", image: file, imageAlt: "Placed", imageDecorative: null })).toEqual({
      heading: "H",
      image: { ...file, alternativeText: "Placed" },
    });
  });
});
