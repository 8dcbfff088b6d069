/**
 * Finds SQL built by interpolation in TypeScript sources: every template
 * literal whose text reads as SQL (an upper-case SQL keyword) and that has
 * `${...}` substitutions, and every `+` concatenation of SQL text with a
 * non-literal. Each finding names the file, line and interpolated
 * expression, so a test can allow only documented identifier interpolation.
 */
import ts from "typescript";

export interface SqlInterpolation {
  file: string;
  line: number;
  /** Source text of the interpolated expression. */
  expression: string;
  /** The SQL text around it, shortened. */
  sql: string;
}

const SQL_START =
  /^\s*\(?\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|VACUUM|WITH|TRUNCATE|LOCK|GRANT|REVOKE|COPY|ANALYZE|REINDEX|CLUSTER)\b/;
const SQL_CLAUSE = /\b(FROM|INTO|WHERE|VALUES|RETURNING|ON CONFLICT|JOIN)\b/;

/** True when `text` (the literal parts of a template or string) reads as SQL. */
export function looksLikeSql(text: string): boolean {
  return SQL_START.test(text) || (SQL_CLAUSE.test(text) && /\b(SELECT|INSERT|UPDATE|DELETE)\b/.test(text));
}

/** The interpolations into SQL text in one source file. */
export function sqlInterpolations(file: string, source: string): SqlInterpolation[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: SqlInterpolation[] = [];
  const lineOf = (node: ts.Node) => tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
  const shorten = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 120);

  const visit = (node: ts.Node): void => {
    if (ts.isTemplateExpression(node)) {
      const literalText = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(" ");
      if (looksLikeSql(literalText)) {
        for (const span of node.templateSpans)
          found.push({
            file,
            line: lineOf(span.expression),
            expression: span.expression.getText(tree),
            sql: shorten(node.getText(tree)),
          });
      }
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const operands = [node.left, node.right];
      const sqlText = operands.some(
        (operand) =>
          (ts.isStringLiteral(operand) || ts.isNoSubstitutionTemplateLiteral(operand)) && looksLikeSql(operand.text),
      );
      if (sqlText) {
        for (const operand of operands) {
          if (
            !ts.isStringLiteral(operand) &&
            !ts.isNoSubstitutionTemplateLiteral(operand) &&
            !ts.isBinaryExpression(operand) &&
            !ts.isTemplateExpression(operand)
          ) {
            found.push({
              file,
              line: lineOf(operand),
              expression: operand.getText(tree),
              sql: shorten(node.getText(tree)),
            });
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}
