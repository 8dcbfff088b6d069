/**
 * How a test runs a TypeScript entry point as a child: one node process with tsx's loader (`node --import tsx
 * <script>`), the same code `npm start` (`tsx cli/chat.ts`) and `npm run demo` run. `npx tsx` started three processes
 * (npx, tsx's CLI, then node) and took about 2 CPU-s more for each start.
 */
export const TSX_NODE_ARGS = ["--import", "tsx"];
