/**
 * A step's summary in Chinese (`summaryInChinese`): the schedule tools', its closing check's and its offline policy's
 * English words, as far as their usual shapes go. The schedule domain's `stepSummary` serves it, so an answer the code
 * composes (the closing check's, `nodes/execute/verification-step.ts`) tells each step's summary in the user's
 * language as the offline policy's answer does.
 */
import { weekdayName } from "../../contracts/language.js";
import { readablePlaces } from "./readable.js";
import { NO_PLACE_BEFORE, NO_PLACE_FITS, NO_RESCHEDULE, rescheduleEmptyText } from "./tools/reschedule.js";
import { dayOfWeekNumber, TASK_STATUS_ZH, type TaskStatus } from "./state.js";

/** propose_reschedule's reasons for a review it left missed (`NO_PLACE_BEFORE`), in Chinese. */
export const NO_PLACE_BEFORE_ZH: Readonly<Record<string, string>> = {
  [NO_PLACE_BEFORE.deadline]: "截止之前已没有符合规则的空闲时段",
  [NO_PLACE_BEFORE.window]: "本窗口结束之前已没有符合规则的空闲时段",
  [NO_PLACE_BEFORE.beside]: "单独放得下，但和已放回的其他错过的复习放不到一起：没有能放回更多的安排",
  [NO_PLACE_BEFORE.unproved]: "在搜索预算内没有找到和其他复习一起的位置（未证明）",
  [NO_PLACE_BEFORE.passed]: "截止时间已过",
};

/** What a reschedule listing with no candidate says (`NO_RESCHEDULE`), in Chinese. */
export const NO_RESCHEDULE_ZH: Readonly<Record<string, string>> = {
  [NO_RESCHEDULE.room]: "没有能容纳错过的复习的空闲时段",
  [NO_RESCHEDULE.passed]: "错过的复习已过了截止时间",
};

/** One `still missed: "X" (why)` part of a reschedule's summary in Chinese (and the listing's `NO_PLACE_FITS`); other text as it is. */
export function stillMissedInChinese(part: string): string {
  if (part === NO_PLACE_FITS) return rescheduleEmptyText(part, "zh");
  const found = /^still missed: "(.+)" \((.+)\)$/.exec(part);
  return found ? `仍为错过：“${found[1]}”（${NO_PLACE_BEFORE_ZH[found[2]!] ?? found[2]}）` : part;
}

const WEEKDAYS_ZH: Readonly<Record<string, string>> = {
  Monday: "周一",
  Tuesday: "周二",
  Wednesday: "周三",
  Thursday: "周四",
  Friday: "周五",
  Saturday: "周六",
  Sunday: "周日",
};

/** A left-out task's limits ("outside Friday, in slots 9-12") in Chinese ("周五以外，第9-12节"). */
function limitsInChinese(limits: string): string {
  const days = (text: string) =>
    text
      .split(" and ")
      .map((day) => WEEKDAYS_ZH[day] ?? day.replace(/^day (\d+)$/, "第$1天"))
      .join("、");
  const parts = limits.split(", ").map((part) =>
    part
      .replace(/^only on (.+)$/, (_, named: string) => `只在${days(named)}`)
      .replace(/^outside (.+)$/, (_, named: string) => `${days(named)}以外`)
      .replace(/^in slots (\d+)-(\d+)$/, "第$1-$2节")
      .replace(/^away from the places you rejected$/, "避开你拒绝的位置"),
  );
  return `${parts.join("，")}：`;
}

/** A JSON-quoted text in Chinese quotation marks. */
function quoted(json: string): string {
  try {
    return `“${String(JSON.parse(json))}”`;
  } catch {
    return json;
  }
}

/** "Mon" / "Monday" → "周一"; anything else stays. */
function weekdayInChinese(english: string): string {
  const weekday = dayOfWeekNumber(english);
  return weekday > 0 ? weekdayName(weekday, "zh") : english;
}

/** The headings of a step that reports its writes, in Chinese. */
const REPORT_HEADINGS_ZH: Readonly<Record<string, string>> = {
  "undid the last change": "已撤销上一次的修改",
  rescheduled: "已补排",
  "not rescheduled": "没有补排",
  "nothing to reschedule": "无需补排",
  recovered: "已补救",
  "skipped the day's reviews": "已跳过这一天的复习",
  "cleared the day": "已清空这一天",
};

/** A task status in Chinese ("已安排"); an unknown one as it is. */
function statusWord(status: string): string {
  return TASK_STATUS_ZH[status as TaskStatus] ?? status;
}

/** What a mark makes a task ("完成", "错过", "跳过"). */
function markWord(to: string): string {
  return { done: "已完成", missed: "错过", skipped: "跳过" }[to] ?? to;
}

/**
 * A step summary the tools wrote in English, in Chinese as far as its usual shapes go ("moved task x from day 2
 * slots 3-4 to day 5 slots 9-10"); ids, names and anything unusual stay as they are. A summary the policy already
 * said in Chinese from a write's data (`appliedWriteSummary`) passes through unchanged; the class and task patterns
 * below are for the English summaries of threads saved before it did.
 */
export function summaryInChinese(english: string): string {
  // propose_reschedule's reasons, wherever the summary quotes them.
  let summary = english;
  // ("its deadline has passed" is left to the shapes below, which say it in Chinese punctuation with what it is of.)
  for (const [words, chinese] of Object.entries({ ...NO_RESCHEDULE_ZH, ...NO_PLACE_BEFORE_ZH }))
    if (words !== NO_PLACE_BEFORE.passed) summary = summary.split(words).join(chinese);
  // A step that reports its writes ("undid the last change: …; …"): the heading, then each write on its own.
  const reported =
    /^(undid the last change|rescheduled|not rescheduled|nothing to reschedule|recovered|skipped the day's reviews|cleared the day): (.*)$/s.exec(
      summary,
    );
  if (reported)
    return `${REPORT_HEADINGS_ZH[reported[1]!]}：${reported[2]!
      .split(/; (?!it is pending again)/)
      .map((part) => {
        const missed = stillMissedInChinese(part);
        if (missed !== part) return missed;
        // A missed review whose new place the user declined, and the skip that let it go (`offline/.../life-steps.ts`).
        if (part === "you declined the new place") return "你拒绝了新的时段";
        if (part.startsWith("let go: ")) return `已放下：${summaryInChinese(part.slice("let go: ".length))}`;
        return summaryInChinese(part);
      })
      .join("；")}`;
  // Dated places first, by date and clock time; what is left undated is said by day and slots below.
  return (
    readablePlaces(summary, "zh")
      // A write the user turned down (a step summary of the offline policy, `offline/schedule/life-steps.ts`).
      .replace(/^not carried out: you declined [^;]*$/, "未执行：你拒绝了这项修改")
      .replace(/^not carried out: /, "未执行：")
      // import_calendar's refusal when nothing can be added (what it imported is said from its data).
      .replace(
        /^no event of the file can be added \(none falls in the window\)/,
        "文件里没有能添加的日程（都不在日程窗口内）",
      )
      .replace(/^no event of the file can be added: /, "文件里没有能添加的日程：")
      .replace(/^nothing new to import: /, "文件里没有新的日程可导入：")
      .replace(/^added task (\S+) "(.+?)" to class (\S+)/, "已在课程 $3 中添加任务 $1“$2”")
      .replace(/^added task "(.+?)" to class (\S+)/, "已在课程 $2 中添加任务“$1”")
      .replace(
        /^(created|updated) task class (\S+) "(.+?)"/,
        (_, verb: string, id: string, name: string) => `已${verb === "created" ? "创建" : "更新"}课程 ${id}“${name}”`,
      )
      .replace(
        /^refined in (\d+) round\(s\): (?:(\d+) more placed; )?health score ([\d.]+) → ([\d.]+); stopped: /,
        (_, rounds: string, placed: string | undefined, from: string, to: string) =>
          `优化了 ${rounds} 轮：${placed ? `多安排了 ${placed} 项；` : ""}健康分 ${from} → ${to}；停止原因：`,
      )
      .replace(/^nothing to refine: health score ([\d.]+); stopped: /, "无需优化：健康分 $1；停止原因：")
      .replace(
        /^not refined: health score ([\d.]+), (?:(\d+)|the) listed change\(s\) not taken; stopped: /,
        (_, score: string, offered: string | undefined) =>
          `未优化：健康分 ${score}，列出的${offered ? ` ${offered} 项` : ""}调整没有采用；停止原因：`,
      )
      .replace(/no change raises the score any more/, "没有调整能再提高分数")
      .replace(/no gain of ([\d.]+) or more in (\d+) rounds in a row/, "连续 $2 轮提升不足 $1")
      .replace(/the budget of (\d+) rounds is spent/, "$1 轮的优化预算已用完")
      .replace(/none of the listed changes was taken in (\d+) turns in a row/, "连续 $1 轮没有选择列出的调整")
      .replace(/; forced, no change can fix: /, "；无法改善（已证明）：")
      .replace(/ \(fits nowhere beside the others, proved\)/g, "（已证明与其他安排放不到一起）")
      .replace(/ \(deadline passed\)/g, "（截止时间已过）")
      .replace(/^moved task (\S+) from (.+?) to (.+)$/, "已把任务 $1 从$2移到$3")
      .replace(/^placed task (\S+) on (.+)$/, "已把任务 $1 安排在$2")
      .replace(/placed task (\S+) on /g, "已把任务 $1 安排在")
      .replace(/\nChanges applied \(they stay\): (\d+) — /, "\n已应用的修改（保留）：$1 — ")
      .replace(/\nApproved but not applied: (\d+) — /, "\n已批准但未应用：$1 — ")
      // The report's lists of writes end "and N more" past the ones they name (`nameWrites`).
      .replace(/(\n(?:已应用的修改（保留）|已批准但未应用)：[^\n]*?) and (\d+) more(?=\n|$)/g, "$1 等（另有 $2 项）")
      .replace(
        /^unplaced task (\S+) from (.+?)(?: \(was embedded in host (\S+)\))?; it is pending again$/,
        "已把任务 $1 从$2撤下，它重新待安排",
      )
      .replace(/^swapped task (\S+) and task (\S+);/, "已交换任务 $1 和任务 $2；")
      // The life marks (`markedText`): what the task was, and what it is now.
      .replace(
        /^marked task (\S+) (done|missed|skipped) \(it was (\w+)\)(; its place is free again)?$/,
        (_, id: string, to: string, from: string, freed?: string) =>
          `已把任务 ${id} 记为${markWord(to)}（原为${statusWord(from)}）${freed ? "，原来的时段空出来了" : ""}`,
      )
      .replace(
        /^marked ("(?:[^"\\]|\\.)*") (done|missed|skipped) \(it was (\w+)\)(; its place is free again)?$/,
        (_, name: string, to: string, from: string, freed?: string) =>
          `已把${quoted(name)}记为${markWord(to)}（原为${statusWord(from)}）${freed ? "，原来的时段空出来了" : ""}`,
      )
      .replace(
        /^reopened task (\S+): it was (\w+), it is pending again$/,
        (_, id: string, from: string) => `已把任务 ${id} 重新设为待安排（原为${statusWord(from)}）`,
      )
      .replace(/^no review was marked missed$/, "没有复习被记为错过")
      // A missed review the user declined to make up (`offline/schedule/life-steps.ts`).
      .replace(/you declined the new place$/, "你拒绝了新的时段")
      .replace(/you kept it missed$/, "你保持了错过")
      .replace(/^nothing to let go: no review was marked missed$/, "无需放下：没有复习被记为错过")
      .replace(/^no review is missed$/, "没有错过的复习")
      .replace(/\bmoved (\d+) tasks\b/g, "移动了 $1 个任务")
      .replace(/task (\S+) now on /g, "任务 $1 现在在 ")
      .replace(/; was on /g, "，原在 ")
      .replace(/the schedule shows ([\d,]+) review task\(s\) still pending/, "日程显示还有 $1 个复习任务待安排")
      .replace(/; ([\d,]+) of them fit somewhere free as the week stands/, "，其中 $1 个按目前的日程放得下")
      .replace(
        /; ([\d,]+) missed review task\(s\) have no place(?:: ([^\n]*?)(?: and (\d+) more)?$)?/m,
        (_, count: string, names?: string, more?: string) =>
          `；另有 ${count} 个错过的复习任务没有安排${names ? `：${names.replace(/"([^"]*)"/g, "“$1”").replace(/, /g, "、")}${more ? ` 等（另有 ${more} 项）` : ""}` : ""}`,
      )
      .replace(/(?:list_tasks shows|I found) no task matching /, "找不到匹配的任务：")
      .replace(/(?:list_tasks shows|I found) no placed task matching /, "找不到匹配的已安排任务：")
      // A swap never takes a locked event (`execute-stage.ts` swapStep).
      .replace(
        /^(?:the event |event \S+ )?("(?:[^"\\]|\\.)*") is locked, and a swap never moves it; if its time really changed, ask me to move it$/,
        "$1 已锁定，交换不会移动它；如果它的时间确实改了，请让我移动它",
      )
      .replace(/(?:list_tasks shows|I found) no event matching /, "找不到匹配的活动：")
      .replace(/ (?:still )?matches (\d+) events \((.+?)\)$/, " 匹配 $1 个活动（$2）")
      // remove_event's refusals (`tools/remove-event.ts`): what the week still depends on.
      .replace(
        /^the deadline of (.+?) is ("(?:[^"\\]|\\.)*"); change it first; nothing was removed$/,
        "$1 的截止时间是 $2；请先修改截止时间；没有删除任何内容",
      )
      .replace(
        /^("(?:[^"\\]|\\.)*") holds (.+?); move them out first; nothing was removed$/,
        "$1 里有 $2；请先把它们移出；没有删除任何内容",
      )
      // A move to where the task already is (the move tool's refusal, and the offline policy's own).
      .replace(/^(.+?) is already on (.+?); nothing to move$/, "$1 已经在$2，不用移动")
      .replace(
        /^no free time of (\d+) slot\(s\) fits (.+?) where asked( \(the time that has passed there is left out\))?$/,
        (_, slots: string, name: string, passed?: string) =>
          `要求的时间里没有能容纳${name}的 ${slots} 节空闲时间${passed ? "（那里已经过去的时间不算）" : ""}`,
      )
      .replace(/the user rejected (?:the move|it|the swap)/, "你拒绝了这项修改")
      .replace(/^every placement the plan had room for was proposed/, "已为计划中放得下的每个任务提出了安排")
      .replace(/; skipped: /, "；跳过：")
      .replace(/; left pending: /, "；仍待安排：")
      .replace(/ \(no free slot fits\)/g, "（没有能容纳它的空闲时段）")
      .replace(
        / \(no free slot fits in what is left of the week \(the rest has passed\)\)/g,
        "（本周剩下的时间里没有能容纳它的空闲时段（其余的已经过去））",
      )
      .replace(/ \(its deadline has passed\)/g, "（截止时间已过）")
      .replace(/ \(fits nowhere beside the others, proved\)/g, "（已证明：和其他安排放在一起时没有位置）")
      .replace(
        / \(no free slot fits ([^)]*)\)/g,
        (_, limits: string) => `（${limitsInChinese(limits)}没有能容纳它的空闲时段）`,
      )
      .replace(/ \(no room left beside the other placements\)/g, "（能容纳它的时段已留给其他安排）")
      .replace(
        / \(its class's rules or its deadline leave no free slot that fits(?: on a day without another session of (?:task|habit) (\S+))?\)/g,
        (_, group?: string) =>
          group === undefined
            ? "（它的课程规则或截止时间排除了所有空闲时段）"
            : `（在没有任务 ${group} 其他一次的日子里，它的课程规则或截止时间排除了所有空闲时段）`,
      )
      .replace(
        / \(another session of (?:task|habit) (\S+) is on each day with room for it\)/g,
        "（能容纳它的每一天都已有任务 $1 的另一次，同一任务一天只安排一次）",
      )
      .replace(
        / \(no place beside the other placements found within the search budget\)/g,
        "（在搜索预算内没有找到能放下它的位置）",
      )
      .replace(
        / \(your standing preference (.+?) rules out the free time it fits in \(\/prefs lists your preferences, \/forget removes one\)\)/g,
        "（你的长期偏好 $1 排除了能容纳它的时段；/prefs 查看偏好，/forget 删除一条）",
      )
      .replace(/no pending task matches /g, "没有匹配的待安排任务：")
      .replace(/" or "/g, '" 或 "')
      .replace(/ \(no pending task matches\)/g, "（没有匹配的待安排任务）")
      .replace(/; ([^;]*?) already on the schedule/, "；$1 已在日程上")
      // A write the rules refused (`move.ts`, `place.ts`): what it would have done, then why.
      // (A refusal about the task itself names it once: the prefix goes, as `readableScheduleText` drops it.)
      .replace(/^cannot (?:move|place) task (\S+): (?=task \1 )/, "")
      .replace(
        /^cannot (move|place) task (\S+): /,
        (_, verb: string, id: string) => `无法${verb === "move" ? "移动" : "安排"}任务 ${id}：`,
      )
      // The buffer a class keeps around its reviews (`rules.ts`).
      .replace(
        / keeps (\d+) free slot\(s\) around it \(its class ("(?:[^"\\]|\\.)*")\), but (event|task) (\S+ "(?:[^"\\]|\\.)*") is at /g,
        (_, buffer: string, name: string, kind: string, neighbour: string) =>
          ` 前后要留出 ${buffer} 节空闲（它的课程 ${name}），但${kind === "event" ? "活动" : "任务"} ${neighbour} 在`,
      )
      // The hard rules' refusals (`rules.ts`), their places already by date and time above.
      .replace(
        / must be done before ((?:event|task) \S+ "(?:[^"\\]|\\.)*") \(([^()]*(?:\([^()]*\))?)\); (.+?) is too late/g,
        " 必须在$1（$2）之前完成；$3 太晚了",
      )
      .replace(/ is due before (.+?); (.+?) is too late/g, " 必须在$1之前完成；$2 太晚了")
      .replace(
        / cannot go before (.+?) \(its earliest day\); (.+?) is too early/g,
        " 不能早于$1（它的最早日期）；$2 太早了",
      )
      .replace(
        / cannot go on (.+?): its class ("(?:[^"\\]|\\.)*") excludes \w+/g,
        " 不能安排在$1：它的课程 $2 不排这一天",
      )
      .replace(
        / cannot go on (.+?): the whole day is blocked for its class ("(?:[^"\\]|\\.)*")/g,
        " 不能安排在$1：这一整天对它的课程 $2 不可用",
      )
      // The standing preferences' refusals (`rules.ts`, `find-free.ts`): the preference in the user's own words.
      .replace(
        / cannot go on (.+?): your standing preference ("(?:[^"\\]|\\.)*") rules (\w+) out; /g,
        (_, day: string, text: string, weekday: string) =>
          ` 不能安排在${day}：你的长期偏好${quoted(text)}排除了${weekdayInChinese(weekday)}；`,
      )
      .replace(
        / cannot start at slot (\d+): your standing preference ("(?:[^"\\]|\\.)*") allows slots (\d+)-(\d+|end) only; /g,
        (_, slot: string, text: string, from: string, to: string) =>
          ` 不能从第${slot}节开始：你的长期偏好${quoted(text)}只允许第${from}${to === "end" ? "节起" : `-${to}节`}；`,
      )
      .replace(
        / cannot end at slot (\d+): your standing preference ("(?:[^"\\]|\\.)*") allows slots up to (\d+) only; /g,
        (_, slot: string, text: string, to: string) =>
          ` 不能在第${slot}节结束：你的长期偏好${quoted(text)}只允许到第${to}节；`,
      )
      .replace(
        /to change it, remove it \(\/prefs lists your preferences, \/forget (\S+) removes this one\)(?: or tell me "(\w+?)s are fine now")?/g,
        (_, id: string, weekday?: string) =>
          `要改变它，请删除它（/prefs 查看偏好，/forget ${id} 删除这一条）${weekday ? `，或者告诉我“${weekdayInChinese(weekday)}可以了”` : ""}`,
      )
      .replace(/your standing preferences rule out every day of the window/g, "你的长期偏好排除了日程窗口中的每一天")
      .replace(
        / \(days (.+?) left out: your standing preferences rule them out\)/g,
        "（已略过第 $1 天：你的长期偏好排除了它们）",
      )
      .replace(/day (\d+) slots (\d+)-(\d+)/g, "第$1天第$2-$3节")
      .replace(/ embedded in host ([A-Za-z0-9_][A-Za-z0-9_.:-]*[A-Za-z0-9_])/g, "（嵌入 $1）")
  );
}
