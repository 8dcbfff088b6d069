/**
 * The schedule tools' result text in the words a person reads (issue 30): the tools write for a model — `task <id>`,
 * `day 4 slots 7-8 (Thu 14 Mar 2024, 16:00–17:40)` — and a person reads `"Matrix operations review"` and
 * `Thu 14 Mar, 16:00–17:40` (`3月14日周四 16:00–17:40` in Chinese), as the cards name them (`calendar.ts` `placeName`).
 * A range without its date note (a window without dates or clock times) is left as it is: its wording stays.
 * Pure text functions: the answers, the task report and the offline policy's replies pass through them.
 */
import type { Language } from "../../contracts/language.js";
import { trimEdges } from "../../contracts/edge-trim.js";
import { placeName } from "./calendar.js";
import { formatDate } from "./state.js";
import type { ScheduleState } from "./state.js";

const WEEKDAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A day / range with the date note the tools put after it: `day 6 slot 3 (Sat 16 Mar 2024, 10:00)`, `day 7 (Sun 17 Mar 2024)`. */
const DATED_PLACE = new RegExp(
  `\\bday \\d+(?: slots? \\d+(?:-\\d+)?)? \\(${WEEKDAY} (\\d{1,2}) (${MONTHS.join("|")}) (\\d{4})(?:, (\\d\\d:\\d\\d(?:–\\d\\d:\\d\\d)?))?\\)`,
  "g",
);

/** Every dated day and range of `text` by its date and clock time in `language`; undated ones stay as they are. */
export function readablePlaces(text: string, language: Language): string {
  return text.replace(DATED_PLACE, (_, day: string, month: string, year: string, clock: string | undefined) => {
    const date = `${year}-${String(MONTHS.indexOf(month) + 1).padStart(2, "0")}-${day.padStart(2, "0")}`;
    const named = formatDate(date, language);
    if (clock === undefined) return named;
    return language === "zh" ? `${named} ${clock}` : `${named}, ${clock}`;
  });
}

/** `task <id> "<name>"`, `event <id> "<name>"` (and the Chinese 任务 / 活动): the name alone. */
// (Not "task matching "…"": words the offline policy writes before a quoted phrase are no ids.)
const LABELLED =
  /(?:\btask|\bevent|任务|活动) (?!match(?:ing|es) |named |called )[A-Za-z0-9_][A-Za-z0-9_.:-]* ("(?:[^"\\]|\\.)*")/g;
/** `cannot move task <id>: task <id> "<name>" …` (and place, with its duration): the refusal names the task once. */
const REPEATED_SUBJECT =
  /\bcannot (?:move|place) task ([A-Za-z0-9_][A-Za-z0-9_.:-]*?)(?: \(duration \d+\))?: (?=(?:task|event) \1 ")/g;
/** The events an import added: `imported <n> event(s): ` and its list, to the end of the line or `; left out`. */
const IMPORTED = /(imported \d+ event\(s\): )(.*?)(?=; left out|$)/gm;
/**
 * `task <id>` / `event <id>` / `habit <id>` / `任务 <id>` without a name: named when the schedule knows the id — not `(task <id>)`,
 * which an answer writes after a name on purpose (the id to refer to it by).
 */
const BARE = /(?<![(（])(\btask|\bevent|\bhabit|任务|活动|习惯) ([A-Za-z0-9_][A-Za-z0-9_.:-]*)/g;
/** The host a task sits inside: ` embedded in host <id>`, ` (was embedded in host <id>)`, `inside <id>`, `（嵌入 <id>）`, `（在 <id> 内`. */
const HOST = /(\bembedded in host|\binside|嵌入|在) ([A-Za-z0-9_][A-Za-z0-9_.:-]*)/g;

/**
 * The lists of task ids the steps' summaries write for the model (`left pending: a (why); b (why)`, `skipped: a, b`,
 * `forced, no change can fix: a (why)`, and their Chinese), to the end of the line.
 */
const ID_LISTS =
  /(\bleft pending: |\bskipped: |\bforced, no change can fix: |仍待安排：|跳过：|无法改善（已证明）：)([^\n]*)/g;

/** `list` with each id of `names` that stands as an entry (before a bracket, a comma, a semicolon or the end) by its name. */
function namedEntries(list: string, names: ReadonlyMap<string, string>): string {
  return list.replace(/(?<![\w"“.:-])([A-Za-z0-9_][A-Za-z0-9_.:-]*)(?= \(|（|[,;，；、]|$)/g, (id: string) => {
    const name = names.get(id);
    return name === undefined ? id : JSON.stringify(name);
  });
}

/**
 * `text` as a person reads it, in `language`: dated places by date and clock time (`readablePlaces`), tasks and events
 * by their names — from the text itself (`task x "Name"`), else from `state` when given (a bare `task x`, and the ids
 * the steps' summaries list: `left pending: x (why)`) — and a refusal that named its task twice names it once.
 */
export function readableScheduleText(text: string, language: Language, state?: Pick<ScheduleState, "tasks">): string {
  const names = new Map((state?.tasks ?? []).map((task) => [task.id, task.name]));
  // A habit's or long task's id (a group's, which the search's reasons name): its sessions' name without the count.
  for (const task of state?.tasks ?? [])
    if (task.source === "task_item" && task.group !== undefined && !names.has(task.group.id))
      names.set(task.group.id, task.name.replace(/ \((?:session )?\d+ of \d+\)$/, ""));
  const read = readableNames(text, language, names);
  return language === "zh" ? staleCardInChinese(read) : read;
}

/** The status words of a task a stale card names (`card-frame.ts`), in Chinese. */
const STATUS_ZH: Readonly<Record<string, string>> = {
  pending: "待安排",
  done: "已完成",
  missed: "已错过",
  skipped: "已跳过",
};

/** Why a card the week changed under is not applied (`card-frame.ts`), in Chinese; other text as it is. */
function staleCardInChinese(text: string): string {
  return framed(
    text,
    [
      "this card was made on the week of ",
      ", and the schedule has moved on to ",
      " since, so its days would be other dates now; ",
    ],
    (kept, now) => `这张卡片是按 ${kept} 那一周做的，日程此后已移到 ${now}，卡片上的日子现在是别的日期了；`,
  )
    .replace(
      /((?:"(?:[^"\\]|\\.)*")|(?<!\S)\S+) has changed since this card was made \((?:it is on (.+?) now|it is (\w+) now|it is gone), by another change\), so the card no longer shows what it would do; /g,
      (_, task: string, place: string | undefined, status: string | undefined) =>
        `${task} 在这张卡片做出之后被另一处修改改变了（${place ? `现在在 ${place}` : status ? `现在${STATUS_ZH[status] ?? status}` : "已不在日程上"}），卡片上写的已不是它会做的；`,
    )
    .replace(
      /nothing was changed, and a change for the week as it is now needs a card of its own/g,
      "没有做任何改动；要按现在的这一周修改，需要一张新的卡片",
    );
}

/**
 * `text` with each `open` (.+?) `middle` (.+?) `close` (on one line) replaced by `build` of the two parts: what
 * `replace(/open(.+?)middle(.+?)close/g, …)` does, in one pass (that expression tried every `open` of a line to its
 * end — the sentence's opening repeated took seconds). The first `open` of a line serves: when it finds no `middle`
 * and `close` after it, no later one does.
 */
function framed(
  text: string,
  [open, middle, close]: readonly [string, string, string],
  build: (a: string, b: string) => string,
) {
  return text
    .split(/([\n\r\u2028\u2029])/)
    .map((line) => {
      let out = "";
      let from = 0;
      for (;;) {
        const start = line.indexOf(open, from);
        if (start < 0) break;
        const mid = line.indexOf(middle, start + open.length + 1);
        const end = mid < 0 ? -1 : line.indexOf(close, mid + middle.length + 1);
        if (end < 0) break;
        out +=
          line.slice(from, start) + build(line.slice(start + open.length, mid), line.slice(mid + middle.length, end));
        from = end + close.length;
      }
      return from === 0 ? line : out + line.slice(from);
    })
    .join("");
}

/** `text` with places by date and clock time, and tasks and events by their names (`readableScheduleText`). */
function readableNames(text: string, language: Language, names: ReadonlyMap<string, string>): string {
  return (
    readablePlaces(text, language)
      // import_calendar's events (`imported 2 event(s): a "A", b "B"`): by name. (An id is read from the start of its
      // run of id characters only: tried from each character, a long run without a name after it was quadratic.)
      .replace(
        IMPORTED,
        (_, head: string, list: string) =>
          `${head}${list.replace(/(?<![A-Za-z0-9_.:-])([.:-]*)[A-Za-z0-9_][A-Za-z0-9_.:-]* ("(?:[^"\\]|\\.)*")/g, "$1$2")}`,
      )
      .replace(REPEATED_SUBJECT, "")
      .replace(LABELLED, "$1")
      .replace(BARE, (whole, _kind: string, id: string) => {
        // An id at the end of a sentence keeps its full stop or colon outside the name (trimmed in one pass: a lazy
        // `/^(.*?)([.:]*)$/` was quadratic on an id with a long run of dots inside).
        const bare = trimEdges(id, /[.:]/, "end");
        const trail = id.slice(bare.length);
        const name = names.get(bare);
        return name === undefined ? whole : `${JSON.stringify(name)}${trail}`;
      })
      // The steps' lists of ids (what was left pending, skipped, proved unfixable): by name.
      .replace(ID_LISTS, (_, head: string, list: string) => `${head}${namedEntries(list, names)}`)
      .replace(HOST, (whole, words: string, id: string) => {
        const bare = trimEdges(id, /[.:]/, "end");
        const trail = id.slice(bare.length);
        const name = names.get(bare);
        if (name === undefined) return whole;
        return `${/^[a-z]/.test(words) ? "inside" : words} ${JSON.stringify(name)}${trail}`;
      })
  );
}

/** The task ids a write's result says it placed, moved or took off (`placed task x`, `moved task x`, `- task x now on`, `unplaced task x`, swap's pair). */
const TOUCHED =
  /(?:^|\n)(?:placed task|moved task|unplaced task|- task|swapped task) ([A-Za-z0-9_][A-Za-z0-9_.:-]*)(?: and task ([A-Za-z0-9_][A-Za-z0-9_.:-]*))?/g;

/** How many items the line names before "and N more". */
const LISTED = 12;

/**
 * Where the tasks that applied writes touched are now, in one line — `Where things are now: "Binary tree review" —
 * Mon 11 Mar, 19:00–19:45; "Essay draft" — pending` — read from the state (what the writes left, a later move over an
 * earlier place), in the order the writes first touched them; undefined when none was touched, or one whose place
 * `answer` names already (a single write's answer does) or that has none.
 */
export function whereThingsAre(
  state: ScheduleState,
  results: readonly string[],
  language: Language,
  answer?: string,
): string | undefined {
  const ids = [
    ...new Set(
      results.flatMap((result) =>
        [...result.matchAll(TOUCHED)].flatMap((match) => [match[1]!, ...(match[2] ? [match[2]] : [])]),
      ),
    ),
  ];
  const tasks = ids.flatMap((id) => state.tasks.filter((task) => task.id === id && task.source === "task_item"));
  const zh = language === "zh";
  // One task: said only when it has a place the answer does not name (a scoped request's answer, told by its steps).
  const only = tasks.length === 1 ? tasks[0]!.slots?.[0] : undefined;
  if (tasks.length === 1 && (!only || answer === undefined || answer.includes(placeName(state.window, only, language))))
    return undefined;
  if (tasks.length === 0) return undefined;
  const entries = tasks.slice(0, LISTED).map((task) => {
    const range = task.slots?.[0];
    const where = range ? placeName(state.window, range, language) : zh ? "待安排" : "pending";
    return `${JSON.stringify(task.name)} — ${where}`;
  });
  const more = tasks.length - entries.length;
  if (zh) return `现在的安排：${entries.join("；")}${more > 0 ? `；另有 ${more} 项` : ""}。`;
  return `Where things are now: ${entries.join("; ")}${more > 0 ? `; and ${more} more` : ""}.`;
}
