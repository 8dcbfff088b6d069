/**
 * Child of `child-runner.test.ts`: prints a long output, then its JSON line, and ends (as tempo-child.ts does): the
 * last of its output can reach the parent after the process has exited.
 */
const chunk = `${"x".repeat(1_023)}\n`;
for (let index = 0; index < 4_096; index++) process.stdout.write(chunk);
process.stdout.write(`${JSON.stringify({ ok: true, card: "loud", phase: null })}\n`);
