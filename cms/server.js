// Starts the CMS without the Strapi CLI: `npm start` (production) and the tests use it.
// The CLI's `strapi start` looks for a tsconfig.json and, finding the front end's one folder
// up, would expect a TypeScript build in an outDir; this project is JavaScript and runs as is.
const { createStrapi } = require('@strapi/strapi');

createStrapi({ appDir: __dirname, distDir: __dirname }).start();
