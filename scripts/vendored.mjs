// The packages the build loads as one bundled module each (scripts/bundle-vendor.mjs), the module of ours
// that re-exports each (source imports the package only through it; ESLint refuses the package's own
// name elsewhere, eslint.config.js), and the imports left outside its bundle. The one list of them.
export const VENDORED = [
  { name: "kysely", module: "src/store/kysely", external: [] },
  // cheerio's fromURL imports undici, which our cheerio module leaves out: an import the bundle drops.
  { name: "cheerio", module: "src/feed/cheerio", external: ["undici"] },
  { name: "date-holidays", module: "src/calendar/date-holidays", external: [] },
  { name: "exceljs", module: "src/publish/exceljs", external: [] },
  { name: "xmlbuilder2", module: "src/publish/xmlbuilder2", external: [] },
];
