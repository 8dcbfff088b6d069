/** The plan steps of one request in Chinese, each written so that the request reader reads it back as that request. */
import type { StepDraft } from "../stage-state.js";
import { PART_OF_DAY_ZH, sayList, weekdayName } from "../../contracts/language.js";
import { listedReviews } from "./replies.js";
import {
  anchorWords,
  onlyExcludes,
  shiftAllBy,
  shiftAllDays,
  timedPlacement,
  type ScheduleRequest,
  type Where,
} from "../../tools/schedule/request-parsing.js";
import { dayOfWords, firstDayOf, resolveDays, slotRangeOf, weekdayOf, type WeekFacts } from "./week-facts.js";
import { limitsSlots } from "./empty-window.js";
import { CALENDAR_PACKS, CLASS_PACKS, OFFLINE_PLAN_STEPS_ZH, RESCHEDULE_STEP, WEEKDAY_ZH } from "./fixed-steps.js";
import { partKeptFree, sameDayToday, shiftWords, stepDay } from "./step-where.js";
import { markTaskWords, markWeekday } from "./english-steps.js";

/** A task's or event's name as a step quotes it. */
const quoted = (task: string) => JSON.stringify(task);

/** The steps of a request in Chinese words (`stepsIn` adds the fixed ones). */
export function chineseSteps(request: ScheduleRequest, facts: WeekFacts): StepDraft[] {
  switch (request.kind) {
    case "arrange":
      return arrangeSteps(request, facts);
    case "move":
      return moveSteps(request, facts);
    case "swap":
      return [
        {
          content: `交换 ${quoted(request.first)} 和 ${quoted(request.second)}`,
          done_when: "两个任务都有了新时段，或已说明无法交换的原因",
        },
      ];
    case "mark": {
      if (request.tasks)
        return request.tasks.flatMap((task) => chineseSteps({ ...request, task, tasks: undefined }, facts));
      const weekday = markWeekday(request, facts);
      const task = weekday === undefined ? markTaskWords(request, "zh") : request.task;
      const on = weekday === undefined ? "" : `${weekdayName(weekday, "zh")}的`;
      const as = { done: "已完成", missed: "错过", skipped: "跳过" }[request.to];
      return [{ content: `把 ${quoted(`${on}${task}`)} 记为${as}`, done_when: `任务已记为${as}，或说明原因` }];
    }
    case "shift_all":
      return shiftAllSteps(request);
    case "clear_day":
      if (request.how === "done" || request.how === "missed") {
        const as = request.how === "done" ? "已完成" : "错过";
        return [
          {
            content: `把${chineseWhere(request.where, facts)}的所有复习记为${as}`,
            done_when: `那里安排的每个复习都已记为${as}，或说明原因`,
          },
        ];
      }
      return [
        {
          content: `${request.how === "skip" ? "跳过" : "取消安排"}${chineseWhere(request.where, facts)}的所有复习`,
          done_when: `那里安排的每个复习都已${request.how === "skip" ? "跳过" : "重新待安排"}，或说明原因`,
        },
      ];
    case "left_before": {
      const day = firstDayOf(request.when, facts);
      return [
        day === undefined
          ? { content: `${request.event}之前还剩什么`, done_when: "已列出它之前要完成的任务及其状态" }
          : {
              content: `${weekdayName(weekdayOf(facts, day), "zh")}之前还剩什么`,
              done_when: "已列出那天之前还要做的复习",
            },
      ];
    }
    case "unplace":
      return [{ content: `取消安排 ${quoted(request.task)}`, done_when: "任务已重新待安排，或已说明无法撤下的原因" }];
    case "remove_event":
      return [
        {
          content: `删除课表活动 ${quoted(request.event)}`,
          done_when: "活动已删除，或已说明无法删除的原因",
          packs: [...CALENDAR_PACKS],
        },
      ];
    case "free": {
      const length = request.minLength > 1 ? `，至少 ${request.minLength} 节` : "";
      const where = chineseWhere(request.where, facts);
      return [{ content: `查找空闲时间${where ? `：${where}` : "（整周）"}${length}`, done_when: "已列出空闲时段" }];
    }
    case "day":
      return [{ content: `查看 ${chineseWhere(request.where, facts)} 有什么安排`, done_when: "已逐节显示这一天" }];
    case "next":
      return [{ content: "查看接下来的安排", done_when: "已显示从现在起的几天" }];
    case "list": {
      const which = `${request.status === "all" ? "所有" : ""}${listedReviews(request.status, "zh", "")}`;
      return [{ content: `列出${which}`, done_when: "已列出它们" }];
    }
    case "explain":
      return [{ content: `解释 ${quoted(request.task)}`, done_when: "已显示这个任务" }];
    case "add_habit":
      return [
        {
          content: `添加习惯 ${quoted(request.name)}，每周 ${request.perWeek} 次${request.minutes ? `，每次 ${request.minutes} 分钟` : ""}${request.part ? `，${PART_OF_DAY_ZH[request.part]}` : ""}`,
          done_when: "习惯的各次已安排，或已说明无法添加的原因",
          packs: [...CLASS_PACKS],
        },
      ];
    case "add_long_task":
      return [
        {
          content: `${request.classPhrase ? `给 ${quoted(request.classPhrase)} ` : ""}添加长任务 ${quoted(request.name)}（分次），${request.minutes}分钟，周${WEEKDAY_ZH[request.dueWeekday - 1]}前`,
          done_when: "任务的各次已安排，或已说明无法添加的原因",
          packs: [...CLASS_PACKS],
        },
        {
          content: `把 ${quoted(request.name)} 的各次放进能容纳它们的时段`,
          done_when: OFFLINE_PLAN_STEPS_ZH[0]!.done_when,
        },
      ];
    case "add_task":
      return [
        {
          content: `给 ${quoted(request.classPhrase)} 添加任务 ${quoted(request.name)}，${request.duration}节${request.dueEvent ? `，在${request.dueEvent}之前完成` : ""}`,
          done_when: "新任务已添加，或已说明无法添加的原因",
          packs: [...CLASS_PACKS],
        },
      ];
    case "class_rules": {
      const rules = [
        ...request.parts.map((part) => `优先${PART_OF_DAY_ZH[part]}`),
        ...(request.excludedWeekdays.length > 0
          ? [`不要${request.excludedWeekdays.map((day) => weekdayName(day, "zh")).join("、")}`]
          : []),
      ];
      return [
        {
          content: `设置课程 ${quoted(request.classPhrase)}：${rules.join("，")}`,
          done_when: "课程已修改，或已说明无法修改的原因",
          packs: [...CLASS_PACKS],
        },
      ];
    }
    default:
      return [];
  }
}

/** An arrangement's steps in Chinese: a task at a time named, or the reviews where the request says, then the check. */
function arrangeSteps(request: Extract<ScheduleRequest, { kind: "arrange" }>, facts: WeekFacts): StepDraft[] {
  const timed = timedPlacement(request);
  if (timed !== undefined)
    return [
      {
        content: `把 ${quoted(timed)} 安排在 ${chineseWhere(request.where, facts, "move")}`,
        done_when: "任务有了时段，或已说明无法安排在那里的原因",
      },
    ];
  const scope =
    request.tasks.length > 0
      ? `把复习任务 ${request.tasks.map(quoted).join("、")} 放进能容纳它们的时段`
      : request.count !== undefined
        ? `把${countZh(request.count)}个复习任务放进能容纳它${request.count === 1 ? "" : "们"}的时段`
        : OFFLINE_PLAN_STEPS_ZH[0]!.content;
  const where = [
    chineseWhere(request.where, facts, "arrange"),
    ...(request.except?.length ? [`除了 ${request.except.map(quoted).join("、")}`] : []),
  ]
    .filter(Boolean)
    .join("，");
  return [
    ...(request.makeUp ? [RESCHEDULE_STEP.zh] : []),
    { content: where ? `${scope}，${where}` : scope, done_when: OFFLINE_PLAN_STEPS_ZH[0]!.done_when },
    OFFLINE_PLAN_STEPS_ZH[1]!,
  ];
}

/** A move's step in Chinese: by a shift from its own place, or to (or off) where the request says. */
function moveSteps(request: Extract<ScheduleRequest, { kind: "move" }>, facts: WeekFacts): StepDraft[] {
  if (request.shift)
    return [
      {
        content: `把 ${quoted(request.task)} ${sameDayToday(request, "zh") ?? shiftWords(request.shift, "zh")}`,
        done_when:
          "days" in request.shift
            ? `任务${shiftWords(request.shift, "zh")}，仍在原来的时间，那个时间被占用时放到当天最近的空闲时间；或说明无法移动的原因`
            : "move 报告任务的新时段，或无法移动的原因",
      },
    ];
  const where = chineseWhere(request.where, facts, "move");
  const away = onlyExcludes(request.where) && where !== "";
  const off = request.leaves && away ? /^不要((?:周|星期)[一二三四五六日天])$/.exec(where)?.[1] : undefined;
  return [
    {
      content: request.otherDay
        ? `把 ${quoted(request.task)} 移到${request.dayward ? `更${request.dayward === "earlier" ? "早" : "晚"}的一天` : "另一天"}${where ? `，${where}` : ""}`
        : off
          ? `把 ${quoted(request.task)} 移出${off}`
          : `把 ${quoted(request.task)} 移到 ${away ? `另一个空闲时段，${where}` : where || "另一个空闲时段"}`,
      done_when: "任务有了新时段，或已说明无法移动的原因",
    },
  ];
}

/** Every review of some days moved together, in Chinese: off the day, or by the same shift. */
function shiftAllSteps(request: Extract<ScheduleRequest, { kind: "shift_all" }>): StepDraft[] {
  const days = sayList(
    shiftAllDays(request).map((weekday) => weekdayName(weekday, "zh")),
    "zh",
  );
  const from = request.startsFrom && !request.endsBy ? `${request.startsFrom}以后` : "";
  // ("14:00-16:00": a window of the clock kept free.)
  const left = request.endsBy ? `${request.startsFrom}-${request.endsBy}` : PART_OF_DAY_ZH[request.part!];
  const whose =
    days === "" ? "所有复习" : `${days}${request.part ? PART_OF_DAY_ZH[request.part] : ""}${from}的所有复习`;
  if (request.away && request.weekday !== undefined)
    return [
      {
        content:
          request.away === "part"
            ? `把${whose}挪出${days}${left}`
            : `把${whose}挪到${request.dayward ? (request.dayward === "earlier" ? "更早的一天" : "更晚的一天") : "别的天"}`,
        done_when: "那里每个还没开始的复习都已挪走，或说明了为什么保留不动",
      },
    ];
  const by = shiftAllBy(request);
  if (request.into && by && "days" in by)
    return [
      {
        content:
          by.days === 0
            ? `把${whose}挪到${days}${PART_OF_DAY_ZH[request.into]}`
            : `把${whose}${shiftWords(by, "zh")}，挪到${PART_OF_DAY_ZH[request.into]}`,
        done_when: `每个还没开始的复习都已挪到${PART_OF_DAY_ZH[request.into]}，或说明了为什么保留不动`,
      },
    ];
  return [
    {
      content: `把${whose}${by === undefined ? "挪到要求的那天" : shiftWords(by, "zh")}`,
      done_when: `每个还没开始的复习都已按${by && "minutes" in by ? "时间" : "天数"}移动，或说明了为什么保留不动`,
    },
  ];
}

/** "周一（第1天），晚上（第9-12节），不要周二" — `whereText` in Chinese, in a form the request parser reads back. */
function chineseWhere(where: Where, facts: WeekFacts, purpose: "use" | "move" | "arrange" = "use"): string {
  const parts: string[] = [];
  const only = resolveDays(where.only, facts);
  if (only.length > 0) parts.push(only.map((day) => stepDay(day, facts, "zh")).join(purpose === "move" ? "或" : "和"));
  // The day of another task or event ("\"物理实验\"的前一天"): said first, what limits the slots after it.
  if (purpose === "move" && where.dayOf)
    parts.unshift(`${JSON.stringify(where.dayOf.anchor)}的${dayOfWords(where.dayOf.offset, "zh")}`);
  // A part of the day ruled out is said as it was ("不要上午"), after the rest: no range of slots would read back as one.
  const { notPart, ...slots } = where.slots;
  // A clock time named ("周日14点"): the time itself, read back as it is ("3月17日周日，14:00").
  // Next to another task or event ("矩阵复习之后"): on the days named, when any are (`3月14日周四，"矩阵复习"之后`).
  if (purpose === "move" && where.next) {
    const anchor = anchorWords(where.next.anchor, "zh");
    return `${parts.length > 0 ? `${parts.join("，")}，` : ""}${anchor}${where.next.side === "after" ? "之后" : "之前"}`;
  }
  if (purpose === "move" && slots.at !== undefined) {
    parts.push(slots.at);
  } else if (purpose === "move" && slots.sameTime) {
    parts.push("同一时间");
  } else if (purpose === "move" && slots.from !== undefined && !slots.part) {
    parts.push(slots.to === undefined ? `（第${slots.from}节）` : `（第${slots.from}-${slots.to}节）`);
  } else if (limitsSlots(slots)) {
    const range = slotRangeOf(slots, facts);
    parts.push(`${slots.part ? PART_OF_DAY_ZH[slots.part] : ""}（第${range.from}-${range.to}节）`);
  }
  if (purpose === "move" && slots.soonest) parts.push("最早的空闲时间");
  if (notPart) parts.push(`不要${PART_OF_DAY_ZH[notPart]}`);
  // Excluded days by weekday only: "（第N天）" after them would read as a day to use.
  const not = resolveDays(where.not, facts);
  const partOut = purpose === "arrange" ? partKeptFree(where, facts) : undefined;
  if (not.length > 0)
    parts.push(
      `不要${[...new Set(not.map((day) => weekdayName(weekdayOf(facts, day), "zh")))].join("、")}${partOut ? PART_OF_DAY_ZH[partOut] : ""}`,
    );
  if (where.before) parts.push(`在${where.before}之前`);
  return parts.join("，");
}

/** A count of reviews in Chinese numerals, as the request reader reads it back ("一", "两", "十二"); digits past 99. */
function countZh(count: number): string {
  const digits = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
  if (count === 2) return "两";
  if (count < 10) return digits[count]!;
  if (count < 100) return `${count >= 20 ? digits[Math.floor(count / 10)] : ""}十${digits[count % 10]}`;
  return String(count);
}
