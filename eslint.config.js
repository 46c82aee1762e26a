// ESLint: typescript-eslint's type-aware recommended rules over the whole tree; formatting is
// Prettier's job (eslint-config-prettier turns the overlapping rules off).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import globals from "globals";
import tseslint from "typescript-eslint";

import { VENDORED } from "./scripts/vendored.mjs";

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
  // Each bundled package (scripts/vendored.mjs) is imported through one module of ours, whose output the
  // build makes one bundle of the package (scripts/bundle-vendor.mjs): importing the package itself would
  // load its hundreds of modules again.
  {
    files: ["src/**/*.ts", "adapters/**/*.ts"],
    ignores: VENDORED.map((v) => `${v.module}.ts`),
    rules: {
      "no-restricted-imports": [
        "error",
        {
          // A type import loads nothing: `import type ExcelJS from "exceljs"` names the package's types.
          paths: VENDORED.map((v) => ({
            name: v.name,
            allowTypeImports: true,
            message: `Import it from ${v.module}.ts (bundled by the build).`,
          })),
        },
      ],
    },
  },
  prettier,
);
