/**
 * The demo site a fresh checkout starts with (written once, into an empty database: see
 * demo-site.js). Pages are listed parents first; `de` is the German localization of the same
 * document where there is one, with the page's slug unless it has its own.
 */

const text = (value) => ({ type: "text", text: value });
const paragraph = (...children) => ({
  type: "paragraph",
  children: children.map((c) => (typeof c === "string" ? text(c) : c)),
});
const heading = (value, level = 2) => ({ type: "heading", level, children: [text(value)] });
const link = (url, label) => ({ type: "link", url, children: [text(label)] });
/** An image block showing the seed's image (`shareImage`): the seed puts the uploaded file in. */
const image = () => ({ type: "image", image: SEED_IMAGE, children: [text("")] });
/** Stands for the uploaded file in a body until the seed has it. */
const SEED_IMAGE = "seed:image";

const page = (title, description, body) => ({
  title,
  body,
  seo: { metaTitle: `${title} | Acme`, metaDescription: description },
});

const pages = [
  {
    key: "home",
    parent: null,
    slug: "",
    en: page("Welcome to Acme", "Acme builds the tools teams use to ship better software, faster.", [
      heading("What we do"),
      paragraph("Acme builds tools that help teams ship better software, faster."),
      paragraph(
        "Curious? ",
        link("/company/careers", "Join us"),
        " or read about the ",
        link("/company", "company"),
        ".",
      ),
    ]),
    de: page("Willkommen bei Acme", "Acme baut Werkzeuge, mit denen Teams bessere Software schneller ausliefern.", [
      heading("Was wir tun"),
      paragraph("Acme baut Werkzeuge, mit denen Teams bessere Software schneller ausliefern."),
    ]),
  },
  {
    key: "company",
    parent: null,
    slug: "company",
    en: page("Company", "Who we are, where we work and how we got here.", [
      heading("About Acme"),
      image(),
      paragraph("Founded in 2019, Acme is a remote-first company of forty people."),
    ]),
    de: page("Unternehmen", "Wer wir sind, wo wir arbeiten und wie alles begann.", [
      heading("Über Acme"),
      image(),
      paragraph("Acme wurde 2019 gegründet und arbeitet remote-first."),
    ]),
  },
  {
    key: "company-careers",
    parent: "company",
    slug: "careers",
    en: page("Careers at Acme", "Work at Acme: how we hire, what we offer and which teams are growing.", [
      heading("Working here"),
      paragraph("We hire for curiosity and care. See ", link("/jobs", "open positions"), "."),
    ]),
    de: page("Karriere bei Acme", "Arbeiten bei Acme: wie wir einstellen und was wir bieten.", [
      heading("Arbeiten bei Acme"),
      paragraph("Wir stellen Menschen ein, die neugierig sind und sorgfältig arbeiten."),
    ]),
  },
  {
    key: "engineering",
    parent: "company-careers",
    slug: "engineering",
    en: page("Engineering at Acme", "How Acme engineering works: small teams, real ownership, steady pace.", [
      heading("How we build"),
      paragraph("Small teams own what they build, from the first sketch to production."),
    ]),
  },
  {
    key: "careers",
    parent: null,
    slug: "careers",
    en: page("Careers", "Everything about working at Acme, in one place.", [
      paragraph("Everything about working at Acme: ", link("/company/careers", "read more"), "."),
    ]),
    de: page("Karriere", "Alles über die Arbeit bei Acme an einem Ort.", [
      paragraph("Alles über die Arbeit bei Acme."),
    ]),
  },
  {
    key: "jobs",
    parent: null,
    slug: "jobs",
    en: page("Open positions", "The roles Acme is hiring for right now.", [
      heading("Open positions"),
      paragraph(link("/jobs/frontend-engineer", "Frontend Engineer")),
      paragraph(link("/jobs/backend-engineer", "Backend Engineer")),
      paragraph(link("/jobs/product-designer", "Product Designer")),
    ]),
  },
  {
    key: "frontend-engineer",
    parent: "jobs",
    slug: "frontend-engineer",
    en: page("Frontend Engineer", "Build the Acme web app with React and TypeScript.", [
      paragraph("You will build the Acme web app with React and TypeScript."),
    ]),
  },
  {
    key: "backend-engineer",
    parent: "jobs",
    slug: "backend-engineer",
    en: page("Backend Engineer", "Design and run the services behind Acme.", [
      paragraph("You will design and run the services behind Acme."),
    ]),
  },
  {
    key: "product-designer",
    parent: "jobs",
    slug: "product-designer",
    en: page("Product Designer", "Shape how people use Acme, from research to pixels.", [
      paragraph("You will shape how people use Acme."),
    ]),
  },
  {
    // The footer's "Imprint" / "Impressum": the provider identification many countries require.
    key: "imprint",
    parent: null,
    slug: "imprint",
    en: page("Imprint", "Who is responsible for this website and how to reach them.", [
      heading("Provider of this website"),
      paragraph("Acme Inc., 1 Example Street, 12345 Example City"),
      paragraph("Represented by Jane Doe, managing director"),
      heading("Contact"),
      paragraph("Email: ", link("mailto:hello@example.com", "hello@example.com")),
    ]),
    de: {
      ...page("Impressum", "Wer für diese Website verantwortlich ist und wie Sie uns erreichen.", [
        heading("Angaben gemäß § 5 DDG"),
        paragraph("Acme GmbH, Beispielstraße 1, 12345 Beispielstadt"),
        paragraph("Vertreten durch Jane Doe, Geschäftsführerin"),
        heading("Kontakt"),
        paragraph("E-Mail: ", link("mailto:hallo@example.com", "hallo@example.com")),
      ]),
      slug: "impressum",
    },
  },
];

const navbar = {
  en: [
    { label: "Home", url: "/" },
    { label: "Company", url: "/company" },
    { label: "Careers", url: "/company/careers" },
    { label: "Jobs", url: "/jobs" },
  ],
  de: [
    { label: "Start", url: "/de" },
    { label: "Unternehmen", url: "/de/company" },
    { label: "Karriere", url: "/de/company/careers" },
  ],
};

const footer = {
  en: {
    note: "© Acme Inc.",
    links: [
      { label: "Imprint", url: "/imprint" },
      { label: "Jobs", url: "/jobs" },
    ],
  },
  de: { note: "© Acme GmbH", links: [{ label: "Impressum", url: "/de/impressum" }] },
};

/** The 404 and error pages' text (the site has its own when the CMS is down). */
const errorPage = {
  en: {
    notFoundTitle: "Page not found",
    notFoundText: "We looked everywhere, but there is no page at this address. Try the menu above.",
    errorTitle: "Something went wrong",
    errorText: "This page could not be shown just now. Please try again in a moment.",
  },
  de: {
    notFoundTitle: "Seite nicht gefunden",
    notFoundText: "Unter dieser Adresse gibt es keine Seite. Versuchen Sie es über das Menü oben.",
    errorTitle: "Etwas ist schiefgelaufen",
    errorText: "Diese Seite kann gerade nicht angezeigt werden. Bitte versuchen Sie es gleich noch einmal.",
  },
};

const redirects = [
  { source: "/en/old-careers", destination: "/company/careers", permanent: true },
  { source: "/en/jobs-board", destination: "/jobs", permanent: false },
];

/**
 * Every seeded page's SEO share image (og:image), and the image block of the company page: a
 * file next to this one (1200 × 630, so Strapi makes all four formats of it).
 */
const shareImage = {
  file: "share-image.png",
  name: "acme-share.png",
  alternativeText: "The Acme logo: a white A on dark blue",
};

module.exports = {
  pages,
  navbar,
  footer,
  redirects,
  shareImage,
  SEED_IMAGE,
  errorPage,
  locales: { default: "en", others: [{ code: "de", name: "German (de)" }] },
};
