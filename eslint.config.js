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
);
