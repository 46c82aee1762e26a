// ESLint: typescript-eslint's type-aware recommended rules over the whole tree; formatting is
// Prettier's job (eslint-config-prettier turns the overlapping rules off).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["dist/", "packages/*/dist/", "node_modules/", "data/", "out/", "coverage/", "test-results/", ".build-*/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // vitest.config.ts sits outside tsconfig.json's folders; it gets a default project of its own.
        projectService: { allowDefaultProject: ["vitest.config.ts"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  { files: ["**/*.js", "**/*.mjs"], ...tseslint.configs.disableTypeChecked },
  // Plain-JavaScript files (bench/, scripts/, this config) run on Node: its globals are defined.
  { files: ["**/*.js", "**/*.mjs"], languageOptions: { globals: globals.node } },
  // No function over 100 lines in src/ and adapters/ (issue 38): a long function is split into named
  // functions with one job each.
  {
    files: ["src/**/*.ts", "adapters/**/*.ts"],
    rules: { "max-lines-per-function": ["error", { max: 100, skipBlankLines: false, skipComments: false }] },
  },
  // kysely, cheerio and date-holidays are imported through one module of ours each, whose output the build
  // makes one bundle of the package (scripts/bundle-vendor.mjs): importing the package itself would load
  // its hundreds of modules again.
  {
    files: ["src/**/*.ts", "adapters/**/*.ts"],
    ignores: ["src/store/kysely.ts", "src/feed/cheerio.ts", "src/calendar/date-holidays.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "kysely", message: "Import it from src/store/kysely.ts (bundled by the build)." },
            { name: "cheerio", message: "Import it from src/feed/cheerio.ts (bundled by the build)." },
            { name: "date-holidays", message: "Import it from src/calendar/date-holidays.ts (bundled by the build)." },
          ],
        },
      ],
    },
  },
  prettier,
);
