/**
 * The reply to an hour nothing goes after, said of one day of the calendar and nothing else ("no studying after 9pm
 * tomorrow", "明天晚上9点以后不要安排复习"; `why: "one_day_hour"`): such an hour is kept only as a standing rule of every
 * week, and a day's wish is none, so nothing is noted and nothing changed — said plainly, with the words without the
 * day that the memory keeps for every week. Before, the English got "I can't tell what to do", and the Chinese
 * arranged every pending review with all of tomorrow kept out, behind a plan card.
 */
import { say, type Language } from "../../contracts/language.js";
import { normalizeText, readDates, readNotAfterHour } from "../../tools/schedule/request-parsing.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";

/** The reply, in `language`. */
export function oneDayHourReply(message: string, language: Language): string {
  const normalized = normalizeText(message);
  const hour = readNotAfterHour(normalized);
  const clock = hour === undefined || hour === 24 ? "" : ` ${String(hour).padStart(2, "0")}:00`;
  const everyWeek = withoutItsDay(normalized);
  const sayEn = everyWeek === undefined ? "say the hour without the day" : `say "${everyWeek}"`;
  const sayZh = everyWeek === undefined ? "请只说时间，不带日期" : `请说“${everyWeek}”`;
  return say(
    language,
    `"${message}" is about one day, and I keep an hour like this only as a standing rule for every week, so I noted nothing and changed nothing. To keep it every week, ${sayEn}. If a review is already placed after${clock} that day, move it: "move <the review> to <another time>".`,
    `“${message}”说的是某一天，而这样的时间限制我只能作为每周都适用的长期偏好记下，所以没有记下，也没有做任何改动。想每周都这样，${sayZh}。那天${clock.trim()}以后如果已经安排了复习，可以把它挪走：“把<复习名>移到<别的时间>”。`,
  );
}

/** The sentence without its day ("no studying after 9pm"), when the memory keeps that as a standing rule. */
function withoutItsDay(normalized: string): string | undefined {
  const rest = readDates(normalized)
    .rest.replace(/^\s*(?:this|on)\b|\b(?:this|on)\s*$/g, " ")
    .replace(/\s+/g, " ")
    .replace(/^[\s,，]+|[\s,，.。!！]+$/g, "");
  return rest !== "" && readSchedulePreferences(rest).add.length > 0 ? rest : undefined;
}
