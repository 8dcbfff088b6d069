/**
 * The week view (issue 48): a day × slot table with dates and clock times — the timetable in grey, the placed
 * reviews in their class colour, free time blank, the passed slots dimmed, the clock's "now" line — and, for a
 * proposal, what arrives (solid outline), what left (dashed ghost of the old place) and the changes in words below.
 * Every cell carries `data-day` (date or position), `data-slot` and `data-state`, so a page can be checked by its DOM.
 */
import type { CSSProperties } from "react";
import { CLASS_COLOURS, type WeekRun, type WeekViewProps } from "./week-props.js";

type CellState = "free" | "event" | "review" | "left";

interface Cell {
  event?: WeekRun;
  review?: WeekRun;
  left?: WeekRun;
}

const MARK_SIGN = { added: "+", moved: "→", swapped: "⇄", removed: "−" } as const;

/** The week drawn from its runs. */
export function WeekView(props: WeekViewProps) {
  const cells = spread(props);
  const slotCount = props.slots.length;
  const frame: CSSProperties = { fontFamily: "system-ui, sans-serif", fontSize: 12, color: "#1f2328", margin: "8px 0" };
  return (
    <div lang={props.language} data-tempo="week" style={frame}>
      <div style={{ fontWeight: 600, marginBottom: 4 }}>{props.title}</div>
      <div style={{ overflowX: "auto" }}>
        {/* The chat's column is ~700 px: the days share it (names cut with an ellipsis); scrolls if narrower. */}
        <table
          style={{
            borderCollapse: "collapse",
            tableLayout: "fixed",
            width: "100%",
            minWidth: 78 + props.days.length * 64,
          }}
        >
          <thead>
            <tr>
              <th style={{ width: 78 }} />
              {props.days.map((day, position) => (
                <th
                  key={position}
                  data-day={day.date ?? String(position + 1)}
                  style={{
                    padding: "2px 4px",
                    fontWeight: day.today ? 700 : 500,
                    color: day.today ? "#b42318" : undefined,
                  }}
                >
                  {day.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.slots.map((time, index) => {
              const slot = index + 1;
              return (
                <tr key={slot}>
                  <th
                    style={{
                      padding: "0 4px",
                      fontWeight: 400,
                      color: "#57606a",
                      textAlign: "right",
                      whiteSpace: "nowrap",
                    }}
                  >
                    {time}
                  </th>
                  {props.days.map((day, position) => {
                    const cell = cells[position]![index]!;
                    const past = props.past !== undefined && position * slotCount + index < props.past;
                    // The line above today's first slot not yet started; below its last once every slot has.
                    const after = props.now !== undefined && props.now.slot > slotCount && slot === slotCount;
                    const isNow =
                      props.now !== undefined && props.now.day === position && (props.now.slot === slot || after);
                    return (
                      <td
                        key={position}
                        data-day={day.date ?? String(position + 1)}
                        data-slot={slot}
                        data-state={stateOf(cell)}
                        data-mark={cell.review?.mark ?? (cell.left && !cell.review ? "left" : cell.event?.mark)}
                        title={titleOf(cell, props)}
                        style={cellStyle(cell, slot, past, isNow)}
                      >
                        {isNow ? <NowLine time={props.now!.time} label={props.labels.now} below={after} /> : null}
                        {caption(cell, slot)}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Legend {...props} />
    </div>
  );
}

function NowLine(props: { time: string; label: string; below: boolean }) {
  return (
    <div
      data-now={props.time}
      title={`${props.label} ${props.time}`}
      style={{
        position: "absolute",
        left: 0,
        right: 0,
        ...(props.below
          ? { bottom: 0, borderBottom: "2px solid #d1242f" }
          : { top: 0, borderTop: "2px solid #d1242f" }),
      }}
    />
  );
}

function Legend(props: WeekViewProps) {
  const names = [...props.reviews, ...props.events, ...props.departures].map((run) => run.name);
  return (
    <div style={{ marginTop: 6, display: "flex", flexDirection: "column", gap: 2, overflowWrap: "anywhere" }}>
      <div style={{ display: "flex", flexWrap: "wrap", gap: 8 }}>
        {props.classes.map((entry) => (
          <span key={entry.colour}>
            <span
              style={{
                display: "inline-block",
                width: 10,
                height: 10,
                marginRight: 3,
                background: colourOf(entry.colour),
              }}
            />
            <bdi>{entry.name}</bdi>
          </span>
        ))}
        <span>
          <span
            style={{ display: "inline-block", width: 10, height: 10, marginRight: 3, border: "1px solid #d0d7de" }}
          />
          {props.labels.free}
        </span>
      </div>
      {props.changes.length > 0 ? (
        <ul data-tempo="changes" style={{ margin: 0, paddingLeft: 16 }}>
          {props.changes.map((change, index) => (
            <li key={index} data-mark={change.mark}>
              <b>{MARK_SIGN[change.mark]}</b> {props.labels[change.mark]}:{" "}
              <ChangeText text={change.text} names={names} />
            </li>
          ))}
        </ul>
      ) : null}
      {props.pending.length > 0 ? (
        <div data-tempo="pending">
          {props.labels.pending}:{" "}
          {props.pending.map((name, index) => (
            <span key={index}>
              {index > 0 ? ", " : ""}
              <bdi>{name}</bdi>
            </span>
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** The runs spread over the cells: `[day position][slot - 1]`. */
function spread(props: WeekViewProps): Cell[][] {
  const cells: Cell[][] = props.days.map(() => props.slots.map(() => ({})));
  const lay = (runs: WeekRun[], key: keyof Cell) => {
    for (const run of runs)
      for (let slot = run.from; slot <= run.to; slot++) {
        const cell = cells[run.day]?.[slot - 1];
        if (cell) cell[key] = run;
      }
  };
  lay(props.events, "event");
  lay(props.reviews, "review");
  lay(props.departures, "left");
  return cells;
}

function stateOf(cell: Cell): CellState {
  if (cell.review) return "review";
  if (cell.event) return "event";
  return cell.left ? "left" : "free";
}

/**
 * The occupant's name at the first slot of its run: a review's over the event that hosts it, and the ghost of a review
 * that leaves over the event it sat in (the proposal is what a person reads here; the entry's name is in the title).
 * The event's name is written at its `named` slot (its first unless a review's name begins there), beside the name that
 * begins there too when one does — each given half the cell, each cut with an ellipsis of its own.
 */
function caption(cell: Cell, slot: number) {
  const review = cell.review;
  const event = cell.event && (cell.event.named ?? cell.event.from) === slot ? cell.event : undefined;
  const named = event ? (
    <span>
      {event.mark ? `${MARK_SIGN[event.mark]} ` : ""}
      <bdi>{event.name}</bdi>
    </span>
  ) : null;
  let main = null;
  if (review && review.from === slot)
    main = (
      <span style={{ fontWeight: 600 }}>
        {review.mark ? `${MARK_SIGN[review.mark]} ` : review.done ? "✓ " : ""}
        <bdi>{review.name}</bdi>
      </span>
    );
  else if (!review && cell.left && cell.left.from === slot)
    main = (
      <span style={{ textDecoration: "line-through", color: "#57606a" }}>
        <bdi>{cell.left.name}</bdi>
      </span>
    );
  if (!main || !named) return main ?? named;
  const half: CSSProperties = {
    display: "inline-block",
    maxWidth: "50%",
    overflow: "hidden",
    textOverflow: "ellipsis",
    verticalAlign: "top",
  };
  return (
    <>
      <span style={half}>{main}</span>
      <span style={{ ...half, marginLeft: 2 }}>{named}</span>
    </>
  );
}

/**
 * A name inside the tooltip's text, bidi-isolated (FSI … PDI), as `<bdi>` isolates it on the page: a name's own
 * direction marks (a right-to-left override) turn only the name, never the words and times beside it.
 */
function isolated(name: string): string {
  return `\u2068${name}\u2069`;
}

/**
 * A change in words, the name it opens with isolated (`<bdi>`) from the places after it: the longest name of a run
 * drawn (an arrival's or a ghost's) that the text starts with, followed by ": ".
 */
function ChangeText(props: { text: string; names: readonly string[] }) {
  const name = props.names
    .filter((entry) => props.text.startsWith(`${entry}: `))
    .reduce<string | undefined>(
      (longest, entry) => (longest && longest.length >= entry.length ? longest : entry),
      undefined,
    );
  if (name === undefined) return <>{props.text}</>;
  return (
    <>
      <bdi>{name}</bdi>
      {props.text.slice(name.length)}
    </>
  );
}

function titleOf(cell: Cell, props: WeekViewProps): string {
  const names = [cell.event?.name, cell.review?.name]
    .filter((name): name is string => name !== undefined)
    .map(isolated);
  if (cell.left && !cell.review) names.push(`${props.labels[cell.left.mark ?? "moved"]}: ${isolated(cell.left.name)}`);
  return names.length > 0 ? names.join(" · ") : props.labels.free;
}

function cellStyle(cell: Cell, slot: number, past: boolean, isNow: boolean): CSSProperties {
  const style: CSSProperties = {
    position: isNow ? "relative" : undefined,
    height: 18,
    padding: "1px 4px",
    border: "1px solid #d0d7de",
    overflow: "hidden",
    whiteSpace: "nowrap",
    textOverflow: "ellipsis",
    maxWidth: 110,
    opacity: past ? 0.45 : 1,
  };
  if (cell.event) style.background = cell.event.locked ? "#d8dee4" : "#eaeef2";
  if (cell.event?.mark && !cell.review) {
    style.outline = "2px solid #1f2328";
    style.outlineOffset = -2;
  }
  if (cell.review) {
    style.background = colourOf(cell.review.colour ?? 0);
    style.color = "#fff";
    if (cell.review.mark) style.outline = "2px solid #1f2328";
    if (cell.review.mark) style.outlineOffset = -2;
    if (cell.review.from !== slot) style.borderTopColor = "transparent";
  } else if (cell.left) {
    style.border = "1px dashed #57606a";
  }
  return style;
}

function colourOf(index: number): string {
  return CLASS_COLOURS[index % CLASS_COLOURS.length]!;
}
