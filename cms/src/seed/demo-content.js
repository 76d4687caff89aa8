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

const page = (title, description, body, sections) => ({
  title,
  body,
  ...(sections ? { sections } : {}),
  seo: { metaTitle: `${title} | Acme`, metaDescription: description },
});

/**
 * Sections of the `sections` dynamic zone (cms/src/components/sections/). A media field given as
 * SEED_IMAGE gets the uploaded demo image (demo-site.js).
 */
const section = (name, fields) => ({ __component: `sections.${name}`, ...fields });
/** The contact page's two forms (cms/src/components/sections/form.json), in both locales. */
const field = (name, label, type, required, extra = {}) => ({ name, label, type, required, ...extra });
const contactSections = {
  en: [
    section("form", {
      formName: "contact",
      heading: "Send us a message",
      fields: [
        field("name", "Your name", "text", true),
        field("email", "Email", "email", true),
        field("topic", "Topic", "select", false, { options: "A question about Acme\nJobs\nPartnerships" }),
        field("message", "Message", "textarea", true, { errorMessage: "Please tell us what you would like to ask." }),
      ],
      consentText: "I agree that Acme stores my message and address to answer me (see the imprint).",
      submitLabel: "Send message",
      successMessage: "Thank you for your message. We will answer within two working days.",
      notifyEmail: "hello@example.com",
    }),
    section("form", {
      formName: "newsletter",
      heading: "Newsletter",
      intro: "One email a month about what is new at Acme.",
      fields: [
        field("email", "Email", "email", true),
        field("product_news", "Also send me product updates", "checkbox", false),
      ],
      submitLabel: "Sign up",
      successMessage: "You are signed up. The next issue comes at the start of the month.",
      notifyEmail: "newsletter@example.com",
    }),
  ],
  de: [
    section("form", {
      formName: "contact",
      heading: "Schreiben Sie uns",
      fields: [
        field("name", "Ihr Name", "text", true),
        field("email", "E-Mail", "email", true),
        field("topic", "Thema", "select", false, { options: "Eine Frage zu Acme\nStellen\nPartnerschaften" }),
        field("message", "Nachricht", "textarea", true, {
          errorMessage: "Bitte schreiben Sie uns, was Sie fragen möchten.",
        }),
      ],
      consentText:
        "Ich bin einverstanden, dass Acme meine Nachricht und Adresse speichert, um mir zu antworten (siehe Impressum).",
      submitLabel: "Nachricht senden",
      successMessage: "Vielen Dank für Ihre Nachricht. Wir antworten innerhalb von zwei Werktagen.",
      notifyEmail: "hallo@example.com",
    }),
    section("form", {
      formName: "newsletter",
      heading: "Newsletter",
      intro: "Eine E-Mail im Monat über Neues bei Acme.",
      fields: [
        field("email", "E-Mail", "email", true),
        field("product_news", "Auch Produktneuigkeiten senden", "checkbox", false),
      ],
      submitLabel: "Abonnieren",
      successMessage: "Sie sind angemeldet. Die nächste Ausgabe kommt zum Monatsanfang.",
      notifyEmail: "newsletter@example.com",
    }),
  ],
};

const homeSections = {
  en: [
    section("hero", {
      heading: "Ship with confidence",
      text: "Plan, build and release in one place: the tools small teams need, without the ceremony.",
      image: SEED_IMAGE,
      imageAlt: "The Acme logo",
      links: [
        { label: "See open positions", page: "jobs" },
        { label: "About the company", page: "company" },
      ],
    }),
    section("card-grid", {
      heading: "Where to start",
      cards: [
        { title: "The company", text: "Who we are and how we work.", link: { label: "Read more", page: "company" } },
        {
          title: "Careers",
          text: "How we hire and what we offer.",
          link: { label: "Working at Acme", page: "company-careers" },
        },
        {
          title: "Open positions",
          text: "The roles we are hiring for now.",
          link: { label: "All jobs", page: "jobs" },
        },
      ],
    }),
    section("quote", {
      quote: "Acme gave our team its evenings back: releases became boring, in the best way.",
      author: "Sam Rivera",
      role: "Head of Engineering, Example Corp",
    }),
    section("logo-cloud", {
      heading: "Teams who build with Acme",
      logos: [
        { name: "Example Corp", image: SEED_IMAGE },
        { name: "Sample Labs", image: SEED_IMAGE },
      ],
    }),
    section("call-to-action", {
      heading: "Want to build this with us?",
      text: "We are hiring engineers and designers.",
      links: [{ label: "Open positions", page: "jobs" }],
    }),
    section("latest-articles", { heading: "From the blog", count: 3 }),
  ],
  de: [
    section("hero", {
      heading: "Mit Zuversicht ausliefern",
      text: "Planen, bauen und veröffentlichen an einem Ort: die Werkzeuge, die kleine Teams brauchen.",
      image: SEED_IMAGE,
      imageAlt: "Das Acme-Logo",
      links: [{ label: "Über das Unternehmen", page: "company" }],
    }),
    section("quote", {
      quote: "Mit Acme sind Releases langweilig geworden, im besten Sinne.",
      author: "Sam Rivera",
      role: "Head of Engineering, Example Corp",
    }),
    section("call-to-action", {
      heading: "Lust, mit uns zu bauen?",
      links: [{ label: "Karriere bei Acme", page: "company-careers" }],
    }),
    section("latest-articles", { heading: "Aus dem Blog", count: 3 }),
  ],
};
const careersSections = {
  en: [
    section("media-with-text", {
      heading: "A remote-first team",
      text: "We work from ten countries and meet twice a year. Most of what we decide is written down.",
      image: SEED_IMAGE,
      imageAlt: "The Acme logo: a white A on dark blue",
      imagePosition: "right",
      link: { label: "See open positions", page: "jobs" },
    }),
    section("faq", {
      heading: "Questions we are often asked",
      items: [
        {
          question: "Do you hire outside Europe?",
          answer: "Yes, anywhere within four hours of Central European Time.",
        },
        { question: "How long does hiring take?", answer: "About three weeks, from the first call to an offer." },
      ],
    }),
    section("rich-text", {
      body: [
        heading("What we offer"),
        paragraph("A yearly learning budget, a home office allowance and four weeks of paid leave to start."),
      ],
    }),
  ],
  de: [
    section("media-with-text", {
      heading: "Ein Team, das remote arbeitet",
      text: "Wir arbeiten aus zehn Ländern und treffen uns zweimal im Jahr.",
      image: SEED_IMAGE,
      imageAlt: "Das Acme-Logo: ein weißes A auf Dunkelblau",
      imagePosition: "left",
    }),
    section("faq", {
      heading: "Häufige Fragen",
      items: [
        { question: "Stellt ihr auch außerhalb Europas ein?", answer: "Ja, innerhalb von vier Stunden um die MEZ." },
      ],
    }),
  ],
};

const pages = [
  {
    key: "home",
    parent: null,
    slug: "",
    en: page(
      "Welcome to Acme",
      "Acme builds the tools teams use to ship better software, faster.",
      [
        heading("What we do"),
        paragraph("Acme builds tools that help teams ship better software, faster."),
        paragraph(
          "Curious? ",
          link("/company/careers", "Join us"),
          " or read about the ",
          link("/company", "company"),
          ".",
        ),
      ],
      homeSections.en,
    ),
    de: page(
      "Willkommen bei Acme",
      "Acme baut Werkzeuge, mit denen Teams bessere Software schneller ausliefern.",
      [
        heading("Was wir tun"),
        paragraph("Acme baut Werkzeuge, mit denen Teams bessere Software schneller ausliefern."),
      ],
      homeSections.de,
    ),
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
    en: page(
      "Careers at Acme",
      "Work at Acme: how we hire, what we offer and which teams are growing.",
      [
        heading("Working here"),
        paragraph("We hire for curiosity and care. See ", link("/positions", "open positions"), "."),
      ],
      careersSections.en,
    ),
    de: page(
      "Karriere bei Acme",
      "Arbeiten bei Acme: wie wir einstellen und was wir bieten.",
      [
        heading("Arbeiten bei Acme"),
        paragraph("Wir stellen Menschen ein, die neugierig sind und sorgfältig arbeiten."),
      ],
      careersSections.de,
    ),
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
    // Not /jobs: the address docs/add-a-content-type.md's example type takes.
    slug: "positions",
    en: page("Open positions", "The roles Acme is hiring for right now.", [
      heading("Open positions"),
      paragraph(link("/positions/frontend-engineer", "Frontend Engineer")),
      paragraph(link("/positions/backend-engineer", "Backend Engineer")),
      paragraph(link("/positions/product-designer", "Product Designer")),
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
  {
    // A contact form and a newsletter sign-up (sections.form, docs/forms.md); submissions are mailed
    // to the example addresses (in development: files in CMS_MAIL_DIR).
    key: "contact",
    parent: null,
    slug: "contact",
    en: page(
      "Contact",
      "Write to the Acme team or sign up for our newsletter.",
      [paragraph("Questions about Acme, a job or a partnership? Write to us: we answer within two working days.")],
      contactSections.en,
    ),
    de: {
      ...page(
        "Kontakt",
        "Schreiben Sie dem Acme-Team oder abonnieren Sie unseren Newsletter.",
        [
          paragraph(
            "Fragen zu Acme, einer Stelle oder einer Partnerschaft? Schreiben Sie uns: Wir antworten innerhalb von zwei Werktagen.",
          ),
        ],
        contactSections.de,
      ),
      slug: "kontakt",
    },
  },
];

/**
 * The blog (cms/src/api/article/, category/, author/): categories in both locales, authors (not
 * localized), articles, each an English document with its German localization. `publishDate` is
 * given, days apart, so the listing's order is the one shown here, newest last.
 */
const categories = [
  { key: "engineering", en: { name: "Engineering", slug: "engineering" }, de: { name: "Technik", slug: "technik" } },
  { key: "news", en: { name: "Company news", slug: "news" }, de: { name: "Neuigkeiten", slug: "neuigkeiten" } },
];

const authors = [
  { key: "ada", name: "Ada Brenner", role: "Engineering lead" },
  { key: "jonas", name: "Jonas Weber", role: "Head of communications" },
];

const article = (title, slug, excerpt, paragraphs) => ({
  title,
  slug,
  excerpt,
  body: paragraphs.map((value) => paragraph(value)),
});

const articles = [
  {
    category: "news",
    author: "jonas",
    publishDate: "2026-09-01T09:00:00.000Z",
    en: article("Acme opens its Berlin office", "berlin-office", "Twenty desks, one very good coffee machine.", [
      "This autumn Acme moves into its first office in Berlin.",
      "We are hiring for it: see the open positions.",
    ]),
    de: article(
      "Acme eröffnet ein Büro in Berlin",
      "buero-berlin",
      "Zwanzig Plätze und eine sehr gute Kaffeemaschine.",
      ["Diesen Herbst bezieht Acme sein erstes Büro in Berlin."],
    ),
  },
  {
    category: "engineering",
    author: "ada",
    publishDate: "2026-09-15T09:00:00.000Z",
    en: article(
      "How we ship twice a day",
      "shipping-twice-a-day",
      "Small changes, feature flags and a fast test suite.",
      [
        "Every change we merge goes to production the same day.",
        "Here is what makes that safe: small changes, flags and tests we trust.",
      ],
    ),
    de: article("Zweimal am Tag ausliefern", "zweimal-am-tag", "Kleine Änderungen, Feature-Flags und schnelle Tests.", [
      "Jede Änderung geht noch am selben Tag in Produktion.",
    ]),
  },
  {
    category: "engineering",
    author: "ada",
    publishDate: "2026-10-01T09:00:00.000Z",
    en: article(
      "Caching pages & keeping them fresh",
      "caching-pages",
      "Stale-while-revalidate, tags and what they buy us.",
      ["Our pages are served from memory and re-rendered when an editor publishes."],
    ),
    de: article("Seiten cachen und frisch halten", "seiten-cachen", "Stale-while-revalidate und Tags.", [
      "Unsere Seiten kommen aus dem Speicher und werden nach jeder Veröffentlichung neu erstellt.",
    ]),
  },
  {
    category: "news",
    author: "jonas",
    publishDate: "2026-10-20T09:00:00.000Z",
    en: article("Acme 3.0 is out", "acme-3", "A new editor, faster builds and a dark mode.", [
      "Acme 3.0 is available to every team today.",
    ]),
    de: article("Acme 3.0 ist da", "acme-3", "Ein neuer Editor, schnellere Builds und ein dunkles Design.", [
      "Acme 3.0 steht ab heute allen Teams zur Verfügung.",
    ]),
  },
  // Scheduled, never published by the seed (docs/scheduled-publishing.md): a draft in both locales
  // with "Publish at" far ahead, which visitors must not see until then.
  {
    category: "news",
    author: "jonas",
    publishAt: "2099-06-01T09:00:00.000Z",
    en: article("Acme 4.0 preview", "acme-4-preview", "What comes after 3.0: announced on the day.", [
      "This article is scheduled: the CMS publishes it at its time, not before.",
    ]),
    de: article("Vorschau auf Acme 4.0", "acme-4-vorschau", "Was nach 3.0 kommt: angekündigt am Tag selbst.", [
      "Dieser Artikel ist geplant: das CMS veröffentlicht ihn zu seiner Zeit, nicht früher.",
    ]),
  },
];

/**
 * Internal links are references (docs/links.md): `page` names a page by its key above, `article` an
 * article by its English slug; the seed connects the version in the link's locale (demo-site.js).
 * "More" / "Mehr" is a drop-down of child links.
 */
const navbar = {
  en: [
    { label: "Home", page: "home" },
    { label: "Company", page: "company" },
    { label: "Careers", page: "company-careers" },
    { label: "Jobs", page: "jobs" },
    {
      label: "More",
      children: [
        { label: "Engineering at Acme", page: "engineering" },
        { label: "Our Berlin office", article: "berlin-office" },
        { label: "Imprint", page: "imprint" },
      ],
    },
  ],
  de: [
    { label: "Start", page: "home" },
    { label: "Unternehmen", page: "company" },
    { label: "Karriere", page: "company-careers" },
    {
      label: "Mehr",
      children: [
        { label: "Unser Büro in Berlin", article: "berlin-office" },
        { label: "Impressum", page: "imprint" },
      ],
    },
  ],
};

const footer = {
  en: {
    note: "© Acme Inc.",
    links: [
      { label: "Imprint", page: "imprint" },
      { label: "Jobs", page: "jobs" },
      { label: "Contact", page: "contact" },
    ],
  },
  de: {
    note: "© Acme GmbH",
    links: [
      { label: "Impressum", page: "imprint" },
      { label: "Kontakt", page: "contact" },
    ],
  },
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
  { source: "/en/jobs-board", destination: "/positions", permanent: false },
];

/**
 * Every seeded page's SEO share image (og:image), and the image block of the company page: a
 * file next to this one (1200 × 630, so Strapi makes all four formats of it).
 */
const shareImage = {
  file: "share-image.png",
  name: "acme-share.png",
  alternativeText: "The Acme logo: a white A on dark blue",
  // Its alternative text where the seed places it (share image, image blocks, covers), per locale:
  // the Media Library's one text is in one language (cms/src/images/alt-text-placements.js).
  placedAlt: { en: "The Acme logo: a white A on dark blue", de: "Das Acme-Logo: ein weißes A auf Dunkelblau" },
};

module.exports = {
  pages,
  categories,
  authors,
  articles,
  navbar,
  footer,
  redirects,
  shareImage,
  SEED_IMAGE,
  errorPage,
  locales: { default: "en", others: [{ code: "de", name: "German (de)" }] },
};
