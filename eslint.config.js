// The linter (issue 45): typescript-eslint's recommended rules over the sources, tests, benches and scripts; the
// formatter (prettier) owns the layout, so no stylistic rule is on here.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", ".langgraph_api/", ".tempo/", "coverage/", "**/*.mjs", "eslint.config.js"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore names what a signature or a destructuring must hold but the body does not use.
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
        },
      ],
    },
  },
  {
    // One job a function (issue 45): no function of the sources, benches or scripts longer than 150 lines of code
    // (blank and comment lines not counted). A test's describe block lists its cases and is not held to it.
    ignores: ["tests/**"],
    rules: {
      "max-lines-per-function": ["error", { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // The exact search's branch and bound: its closures share the typed arrays of one search (the tables, the days'
    // loads, the chosen days), so its parts stay in one generator, as week-model.ts stays one class.
    files: ["tools/schedule/placement-search.ts"],
    rules: { "max-lines-per-function": "off" },
  },
);
