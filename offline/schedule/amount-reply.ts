/**
 * The reply to a request holding an amount no schedule can hold (`readBadAmount`: "-4 hours", "0分钟", "1e9 hours",
 * "99999 minutes", "at 25:00"): what is wrong with it and what is allowed, in the user's language; nothing is changed.
 */
import { say, type Language } from "../../contracts/language.js";
import type { BadAmount } from "../../tools/schedule/request-parsing.js";

/** What is said of each amount and problem: its English and its Chinese, `said` the amount as written. */
const WORDS: Record<string, (said: string) => [string, string]> = {
  "length/below_one": (said) => [
    `"${said}" is not a length I can use: a length must be more than zero, so I changed nothing. Say a positive number of minutes or hours, e.g. "45 minutes" or "2 hours" (to move something earlier, say "… earlier").`,
    `“${said}”不是能用的时长：时长必须大于零，所以什么也没有改。请用正数的分钟或小时来说，比如“45分钟”或“2小时”（要往前挪，请说“提前……”）。`,
  ],
  "length/too_long": (said) => [
    `"${said}" is longer than a week, longer than any task or move here can take, so I changed nothing. Say a length of at most a week (168 hours), e.g. "4 hours".`,
    `“${said}”超过了一周，任务和移动都用不了这么长，所以什么也没有改。请说一周（168小时）以内的时长，比如“4小时”。`,
  ],
  "length/unreadable": (said) => [
    `I can't read "${said}" as a length, so I changed nothing. Write the number plainly, e.g. "90 minutes" or "2 hours".`,
    `我读不懂“${said}”这个时长，所以什么也没有改。请直接写数字，比如“90分钟”或“2小时”。`,
  ],
  "count/below_one": (said) => [
    `"${said}" is no count I can act on: a count must be at least one, so I changed nothing. Say how many as a whole number, e.g. "3 reviews" or "3 times a week".`,
    `“${said}”不是能执行的数量：数量至少是一，所以什么也没有改。请用整数说数量，比如“3个复习”或“每周3次”。`,
  ],
  "clock/no_such_time": (said) => [
    `There is no "${said}" on a clock (hours run from 0 to 23, minutes from 0 to 59), so I changed nothing. Say a time such as "14:00", "2pm" or "9:30".`,
    `时钟上没有“${said}”（小时是0到23，分钟是0到59），所以什么也没有改。请说一个时间，比如“14:00”“下午两点”或“9:30”。`,
  ],
};

/** The reply to `bad`, in `language`. */
export function badAmountReply(bad: BadAmount, language: Language): string {
  const words = WORDS[`${bad.amount}/${bad.problem}`] ?? WORDS["length/unreadable"]!;
  const [english, chinese] = words(bad.said);
  return say(language, english, chinese);
}
