/**
 * The status line (issue 48 item 5): the stage a task is at ("Applying 8 approved changes…"), under the assistant
 * message it follows, replaced as the task goes on and emptied when the next card or the answer comes: an empty
 * status draws nothing (it stays mounted, see `streaming/progress-ui.ts`).
 */
import type { StatusProps } from "./week-props.js";

/** One line with a pulsing dot; nothing for an emptied status. */
export function StatusLine(props: StatusProps) {
  if (props.text === "") return null;
  return (
    <div
      data-tempo="status"
      lang={props.language}
      role="status"
      style={{ fontFamily: "system-ui, sans-serif", fontSize: 13, color: "#57606a", margin: "6px 0" }}
    >
      <span style={{ color: "#4f86c6", marginRight: 6 }}>●</span>
      {props.text}
    </div>
  );
}
