/**
 * The health panel (issue 48): the week's score out of 100 and the points each part of it costs (rhythm, tightness,
 * profile, feasibility), before → after a refinement, beside the refinement's proposal.
 */
import type { HealthPanelProps } from "./week-props.js";

/** The score and its parts, before → after. */
export function HealthPanel(props: HealthPanelProps) {
  const trend = (before: number, after: number, better: "up" | "down") =>
    after === before ? "#57606a" : after > before === (better === "up") ? "#1a7f37" : "#d1242f";
  return (
    <div data-tempo="health" style={{ fontFamily: "system-ui, sans-serif", fontSize: 12, margin: "8px 0" }}>
      <div style={{ fontWeight: 600 }}>
        {props.title}: <span data-score-before={props.before}>{props.before}</span> →{" "}
        <span data-score-after={props.after} style={{ color: trend(props.before, props.after, "up") }}>
          {props.after}
        </span>
        /100
      </div>
      <table style={{ borderCollapse: "collapse" }}>
        <tbody>
          {props.parts.map((part) => (
            <tr key={part.label} data-part={part.label}>
              <td style={{ paddingRight: 8 }}>{part.label}</td>
              <td style={{ textAlign: "right" }}>{cost(part.before)}</td>
              <td style={{ padding: "0 4px" }}>→</td>
              <td style={{ textAlign: "right", color: trend(part.before, part.after, "down") }}>{cost(part.after)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The points a part costs, as taken from the score ("−15.8"); a part that costs nothing is "0", not "−0". */
function cost(points: number): string {
  return points > 0 ? `−${points}` : "0";
}
