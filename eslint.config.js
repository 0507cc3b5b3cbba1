// ESLint (flat config): typescript-eslint's type-checked rules for all TypeScript, React's hook
// rules and jsx-a11y for the portal's components. Prettier owns the layout, so no style rules here.
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  // types/ holds the shared declarations' runtime stand-ins, which only tsconfig.shared.json reads (the
  // all-in-one tsconfig has the DOM's own URL), so the type-aware linter has no project for them.
  { ignores: ["dist/", "dist-*/", ".data/", ".test-data/", "bench/results/", "node_modules/", "public/", "types/"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
  },
  {
    files: ["src/**/*.{ts,tsx}", "tests/unit/**/*.tsx"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ["**/*.tsx", "src/**/*.ts"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: { ...reactHooks.configs.recommended.rules, ...jsxA11y.flatConfigs.recommended.rules },
  },
  {
    // Dropping a field with `const { field: _, ...rest } = row` (a fixture, a row without its holder): the rest is what is used.
    files: ["**/*.{ts,tsx}"],
    rules: { "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }] },
  },
  { files: ["**/*.{js,mjs,cjs}"], ...tseslint.configs.disableTypeChecked },
);
