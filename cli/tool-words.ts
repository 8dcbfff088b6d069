/**
 * Tool activity in people's words for the terminal (issue 48): what the agent is doing ("looking for the best
 * arrangement", "Place "Matrix operations review" on Tue 12 Mar, 16:00–17:40") and what came back, with tasks by
 * name and places by date and clock time — in the user's language. Ids, tool names and JSON arguments are the
 * debug view's (`--verbose`, `/debug`).
 */
import { say, weekdayName, type Language } from "../contracts/language.js";
import { describeScheduleCall } from "../tools/schedule/describe-call.js";
import { readableScheduleText } from "../tools/schedule/readable.js";
import { isPastRefusal, pastRefusalText } from "../tools/schedule/rules.js";
import { isRescheduleListing, rescheduleEmptyText } from "../tools/schedule/tools/reschedule.js";
import { isRecoveryListing, recoveryEmptyText } from "../tools/schedule/tools/recovery.js";
import { formatDate } from "../tools/schedule/state.js";
import { summaryPattern, type SummaryKey } from "../tools/schedule/summary-phrases.js";
import { summaryInChinese } from "../tools/schedule/summary-words.js";
import type { ScheduleListing } from "../tools/schedule/candidate-listing.js";
import type { CandidateListing, ProposedCandidate } from "../tools/domain.js";
import type { ScheduleState } from "../tools/schedule/state.js";

/** What a read or a step-control call does, said as an activity. */
const ACTIVITY: Readonly<Record<string, readonly [english: string, chinese: string]>> = {
  propose_arrangement: ["looking for the best arrangement of your pending reviews", "为待安排的复习寻找最佳安排"],
  propose_candidates: ["looking for changes that make the week healthier", "寻找能让这一周更健康的调整"],
  analyze_health: ["checking how healthy the week is", "检查这一周的健康度"],
  get_overview: ["reading your week", "查看你的一周"],
  list_tasks: ["listing your tasks", "列出你的任务"],
  get_task_info: ["reading a task", "查看一个任务"],
  find_free: ["looking for free time", "查找空闲时间"],
  query_range: ["reading part of your week", "查看一周中的一段"],
  estimate: ["estimating how long it takes", "估计所需时间"],
  export_calendar: ["writing your week as a calendar file", "把你的一周写成日历文件"],
  import_calendar: ["importing your calendar", "导入你的日历"],
  roll_window: ["moving on to the next week", "进入下一周"],
  add_task: ["adding a task", "添加任务"],
  update_task: ["changing a task", "修改任务"],
  remove_task: ["removing a task", "删除任务"],
  upsert_task_class: ["saving a task class", "保存课程类别"],
  list_todos: ["reading your to-do list", "查看待办清单"],
  add_todo: ["adding a to-do", "添加待办"],
  remove_todo: ["removing a to-do", "删除待办"],
  retrieve_facts: ["recalling what I know about you", "回想关于你的信息"],
  recall_episodes: ["recalling earlier tasks", "回想以前的任务"],
  update_working_memory: ["noting where the task stands", "记下任务进展"],
  context_tools_add: ["getting the tools this step needs", "准备这一步需要的工具"],
  context_tools_remove: ["putting tools away", "收起不再需要的工具"],
  execute_decision: ["deciding the step's next move", "决定这一步的下一步"],
  propose_undo: ["looking up the last change to undo", "查找上一次的修改以便撤销"],
  propose_reschedule: ["looking for the best time to make up missed reviews", "为错过的复习寻找补做的时段"],
  propose_recovery: ["looking for the change that saves reviews at risk", "寻找能补救赶不上截止的复习的修改"],
};

/** A tool call as an activity line's text: a write described with names and dates, a read by what it does. */
export function describeToolCall(
  name: string,
  args: Record<string, unknown>,
  language: Language,
  state?: ScheduleState,
): string {
  const write = state === undefined ? undefined : describeScheduleCall(state, name, args, language);
  if (write !== undefined) return write;
  const activity = ACTIVITY[name];
  if (activity) return say(language, activity[0], activity[1]);
  return name.replace(/_/g, " ");
}

/**
 * A tool result's first line as a person reads it: names and dates instead of ids and day numbers. A listing of
 * candidates (its `data`) says the week's score now and what the best proposal would make it, so the score is not
 * read as the proposal's. For a Chinese-speaking user the fixed words are Chinese too (`chineseResult`): names, ids
 * and numbers stay as they are.
 */
export function describeToolResult(content: string, data: unknown, language: Language, state?: ScheduleState): string {
  const listing = listingOf(data);
  if (listing) {
    const [best] = listing.candidates;
    if (best)
      return say(
        language,
        `the week scores ${listing.score}/100 now; the best proposal (${best.summary}) would make it ${best.scoreAfter}`,
        `这一周现在 ${listing.score}/100 分；最佳方案${chineseSummary(best, state)}可以提高到 ${best.scoreAfter}`,
      );
    return say(
      language,
      `the week scores ${listing.score}/100; no change raises it`,
      `这一周 ${listing.score}/100 分；没有能提高它的调整`,
    );
  }
  // A refusal the tool gave as data (the clock's): said from it, with no id, slot index or tool name.
  if (isPastRefusal(data) && state)
    return `${say(language, "not done: ", "未能完成：")}${pastRefusalText(data, state.window, language)}`;
  // A reschedule that proposes nothing: why, from its data.
  if (isRescheduleListing(data) && data.candidates.length === 0 && data.empty !== undefined)
    return say(
      language,
      `nothing to propose: ${data.empty}`,
      `没有可以提出的补排：${rescheduleEmptyText(data.empty, language)}`,
    );
  // A recovery that lists nothing: why, from its data.
  if (isRecoveryListing(data) && data.candidates.length === 0 && data.empty !== undefined)
    return say(
      language,
      `nothing to recover: ${data.empty}`,
      `没有可以补救的：${recoveryEmptyText(data.empty, language)}`,
    );
  const [first = "", ...rest] = content.split("\n");
  const candidates = language === "zh" ? candidatesOf(data) : undefined;
  const proposal = candidates?.[0] && state ? describedWrites(candidates[0], state) : undefined;
  const readable =
    proposal !== undefined && first.startsWith(`${candidates![0]!.id}: `)
      ? `${candidates![0]!.id}：${proposal}`
      : readableScheduleText(language === "zh" ? tableInChinese(first) : first, language, state);
  const said = language === "zh" ? chineseResult(readable) : readable;
  return rest.length > 0 ? `${said} …` : said;
}

/** A write's result as the schedule's summary table writes it (`tools/place.ts`, `move.ts`, …), as its table keys. */
const WRITE_RESULTS: readonly SummaryKey[] = [
  "placed",
  "moved",
  "unplacedFromHost",
  "unplaced",
  "swapped",
  "movedMany",
  "marked",
  "markedFreed",
  "reopened",
];

/**
 * A line with the words the schedule's summary table has — a write's result ("placed task x on …", "marked task x
 * done …"), a refusal's (`error: …`: the rules', a refused write's head, a move to where the task already is) — said
 * from the table (`summaryInChinese`, as a step's summary tells them): one Chinese for them, the answers' and the
 * terminal's. Said before the text is made readable, since the table reads the tools' own English (ids, dated and
 * undated places); what the table does not know is left for `chineseResult`. Any other line (a read's) as it is.
 */
function tableInChinese(line: string): string {
  const head = /^error: /i.exec(line)?.[0];
  if (head !== undefined) return `${head}${summaryInChinese(line.slice(head.length))}`;
  return WRITE_RESULTS.some((key) => summaryPattern(key, "start").test(line)) ? summaryInChinese(line) : line;
}

/** A schedule listing (propose_arrangement, propose_candidates), or undefined for any other data. */
function listingOf(data: unknown): Pick<ScheduleListing, "score" | "candidates"> | undefined {
  const listing = data as Partial<ScheduleListing> | undefined;
  return typeof listing?.score === "number" && Array.isArray(listing.candidates)
    ? (listing as ScheduleListing)
    : undefined;
}

/** The candidates of a listing without a score (propose_undo's), or undefined for any other data. */
function candidatesOf(data: unknown): ProposedCandidate[] | undefined {
  const listing = data as Partial<CandidateListing> | undefined;
  return Array.isArray(listing?.candidates) ? listing.candidates : undefined;
}

/** A candidate's writes said in Chinese from the week (`describeScheduleCall`), or undefined when one cannot be. */
function describedWrites(candidate: ProposedCandidate, state: ScheduleState): string | undefined {
  const said = candidate.writes.map((write) => describeScheduleCall(state, write.name, write.arguments, "zh"));
  return said.length > 0 && said.every((text) => text !== undefined) ? said.join("；") : undefined;
}

/** The best proposal in Chinese, in brackets: an arrangement by its count, other changes by their writes; "" when it cannot be said. */
function chineseSummary(best: ProposedCandidate, state: ScheduleState | undefined): string {
  const arrangement = /^place (\d+) of (\d+) pending review\(s\)$/.exec(best.summary);
  if (arrangement) return `（安排 ${arrangement[2]} 项待安排复习中的 ${arrangement[1]} 项）`;
  const said = state === undefined ? undefined : describedWrites(best, state);
  return said === undefined ? "" : `（${said}）`;
}

/** A quoted name or a Chinese date and time, as the readable text has them. */
const NAME = `"(?:[^"\\\\]|\\\\.)*"`;

/**
 * The schedule tools' fixed result words (tools/schedule/format.ts) in Chinese, over the readable text: names (quoted),
 * dates, ids and numbers are kept. A line no rule knows is left as it is. A write's result the summary table has
 * (placed, moved, unplaced, swapped, marked, reopened) is not here: `tableInChinese` said it from the table before.
 */
const CHINESE_RESULTS: ReadonlyArray<readonly [RegExp, string | ((...groups: string[]) => string)]> = [
  [
    /^free runs with min_length=(\d+) on days (\S+) slots (\d+-\d+): ([\d,]+) found$/,
    "第 $2 天第 $3 节中至少 $1 节的空闲时段：找到 $4 段",
  ],
  [/^no free run with min_length=(\d+) on days (\S+) slots (\d+-\d+)$/, "第 $2 天第 $3 节中没有至少 $1 节的空闲时段"],
  [/^tasks matching all: ([\d,]+) of ([\d,]+)$/, "全部任务：共 $2 个中的 $1 个"],
  [/^tasks matching (.+): ([\d,]+) of ([\d,]+)$/, "符合条件（$1）的任务：共 $3 个中的 $2 个"],
  [new RegExp(`^removed (${NAME})$`), "已删除 $1"],
  [
    new RegExp(`^added (${NAME}) \\(([\\d,]+) slot\\(s\\), class (\\S+)\\); it is pending$`),
    "已添加 $1（$2 节，类别 $3），待安排",
  ],
  [/^schedule: (\d+) days \((.*)\), (\d+) slots per day$/, "日程：$1 天（$2），每天 $3 节"],
  [/^day (\d+) week (\d+) \w+ slots (\d+-\d+):$/, "第 $1 天（第 $2 周）第 $3 节："],
  // query_range's heading of a dated day (`formatDay`): the date as the cards say it.
  [
    /^day \d+ week \d+ \w+ (\d{4}-\d{2}-\d{2}) slots (\d+-\d+):$/,
    (_, date: string, slots: string) => `${formatDate(date, "zh")} 第 ${slots} 节：`,
  ],
  // analyze_health's first line (`formatHealth`).
  [/^health score ([\d.]+)\/100$/, "健康分 $1/100"],
  // import_calendar's result (`importedText`), its events by name.
  [/^imported (\d+) event\(s\): (.+)$/, "已导入 $1 个日程：$2"],
  [/^imported (\d+) event\(s\)$/, "已导入 $1 个日程"],
  // The restores an undo applies (`restore-task.ts`, `restore-event.ts`).
  [new RegExp(`^restored (${NAME}); it is (\\w+)$`), "已恢复 $1（现在为$2）"],
  [new RegExp(`^restored (${NAME})$`), "已恢复 $1"],
];

/**
 * A failed call's fixed words in Chinese (a refusal `error: …`, a write the user turned down `Not applied: …`), over
 * the readable text: names, dates and the user's own feedback are kept. A refusal no rule knows keeps its English
 * reason after the Chinese label. The words of the schedule's summary table (the rules' refusals, a refused write's
 * head, a move to where the task already is, "; nothing was moved") are not here: `tableInChinese` said them from the
 * table before.
 */
const CHINESE_FAILURES: ReadonlyArray<readonly [RegExp, string | ((...groups: string[]) => string)]> = [
  [/^Not applied: the user rejected this change\. Their feedback: /, "未执行：你拒绝了这项修改。你的理由："],
  // A write its run was cancelled before (`CANCELLED_WRITE_RESULT`).
  [/^Not applied: the run was cancelled before this change was made\.$/, "未执行：这次运行在做这项修改之前被取消了。"],
  [
    /^Not applied: the user rejected this change without comment\. Choose a different action\.$/,
    "未执行：你拒绝了这项修改（没有说明理由）。",
  ],
  [/^error: /i, "未能完成："],
  [
    /the user put (\S+) on day (\d+) from slot (\d+) themselves \(they edited its card in this task\), so it stays there\. Nothing was changed; leave it where it is\.$/,
    "你在这个任务里亲手把 $1 放在第 $2 天第 $3 节起（改过它的卡片），所以它留在那里。没有做任何修改。",
  ],
  [
    /(\w+|day \d+) is your day off \(you said so in this task(?:: (".*"))?\), so no review goes on day (\d+)\. Nothing was changed; choose another day\.$/,
    (_, day, said, index) =>
      `${chineseDay(day)}是你的休息日（你在这个任务里说过${said ? `：${said}` : ""}），所以第 ${index} 天不安排复习。没有做任何修改。`,
  ],
  [
    /the user rejected (\S+) on (.+?) in this task(?:: (".*"))?, so it does not go there\. Nothing was changed; choose another place\.$/,
    (_, task, place, said) =>
      `你在这个任务里拒绝了把 ${task} 放在${chineseDay(place)}${said ? `（${said}）` : ""}，所以它不会放在那里。没有做任何修改。`,
  ],
  [/\. Nothing was changed\.$/, "。没有做任何修改。"],
  // (The overlapped place ends at a semicolon, or at the table's Chinese one: "；没有移动任何任务" is said before.)
  [new RegExp(`([^：；]+?) overlaps (?:locked )?(${NAME}) on ([^;；]+)`), "$1 与 $2（$3）时间冲突"],
  [/day (\d+) is outside the window \(days 1-(\d+)\)/, "第 $1 天不在日程范围内（第 1–$2 天）"],
  [new RegExp(`(${NAME}) is already placed on ([^;]+); use move to change it`), "$1 已经安排在 $2；要换时间请移动它"],
  [
    new RegExp(`no task with id (${NAME})(?: among [\\d,]+ tasks)?; use list_tasks to find ids`),
    "没有 id 为 $1 的任务",
  ],
  [new RegExp(`(${NAME}) is pending, not on the schedule; use place to put it there`), "$1 还没有安排，不在日程上"],
  [new RegExp(`(${NAME}) is already pending; nothing to unplace`), "$1 本来就是待安排的，没有可撤下的"],
];

/** A day as the decisions' refusals name it — `Friday`, `day 3`, `day 3 from slot 5` — in Chinese. */
function chineseDay(day: string): string {
  const slot = /^day (\d+)(?: from slot (\d+))?$/.exec(day);
  if (slot) return slot[2] === undefined ? `第 ${slot[1]} 天` : `第 ${slot[1]} 天第 ${slot[2]} 节起`;
  const weekday = [1, 2, 3, 4, 5, 6, 7].find((index) => weekdayName(index, "en") === day);
  return weekday === undefined ? day : weekdayName(weekday, "zh");
}

/** Chinese words for a task's state (a restored task's, list_tasks' filters). */
const SETTLED_ZH: Readonly<Record<string, string>> = {
  done: "完成",
  missed: "错过",
  skipped: "跳过",
  placed: "已安排",
  pending: "待安排",
};

/** A readable result line with the tools' fixed English words in Chinese (`CHINESE_RESULTS`, `CHINESE_FAILURES`). */
function chineseResult(line: string): string {
  if (/^(?:error: |Not applied: )/i.test(line))
    return CHINESE_FAILURES.reduce(
      (said, [pattern, chinese]) =>
        typeof chinese === "string"
          ? said.replace(pattern, chinese)
          : said.replace(pattern, (...match: string[]) => chinese(...match)),
      line,
    );
  let said = line;
  for (const [pattern, chinese] of CHINESE_RESULTS)
    said =
      typeof chinese === "string"
        ? said.replace(pattern, chinese)
        : said.replace(pattern, (...match: string[]) => chinese(...match));
  said = said.replace(/^符合条件（(.+?)）/, (_, filters: string) => `符合条件（${chineseFilters(filters)}）`);
  return said.replace(/（现在为(\w+)）/g, (whole) => whole.replace(/[a-z]+/g, (word) => SETTLED_ZH[word] ?? word));
}

/** list_tasks' filters (`status=pending source=event day=3`) in Chinese; a filter it does not know stays as it is. */
function chineseFilters(filters: string): string {
  const values: Readonly<Record<string, string>> = { ...SETTLED_ZH, event: "课表活动", task_item: "复习任务" };
  return filters
    .split(/\s+/)
    .map((filter) => {
      const [key = "", value = ""] = filter.split("=");
      if (key === "day") return `第 ${value} 天`;
      if (key === "category") return `类别 ${value}`;
      return key === "status" || key === "source" ? (values[value] ?? filter) : filter;
    })
    .join("，");
}
