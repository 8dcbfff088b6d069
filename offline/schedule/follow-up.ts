/**
 * A follow-up question ("what about next week?", "and Friday?", "下周呢") read as the question it follows, asked of
 * the days or times it names: the conversation's user lines are read oldest first, each question about days (or a
 * follow-up of one) kept as the question a later follow-up repeats. Only the prompt is read: nothing is remembered.
 */
import { parseScheduleRequest, readFollowUp, type ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { userLinesBefore, type PromptView } from "../prompt-reading.js";

/** `message` as the question before it asked again, when it is a follow-up of one; else undefined. */
export function followUpOf(message: string, view: PromptView): ScheduleRequest | undefined {
  if (parseScheduleRequest(message).kind !== "unknown") return undefined;
  const earlier = userLinesBefore(view, message);
  let question: ScheduleRequest | undefined;
  for (const line of earlier) {
    const read = parseScheduleRequest(line);
    if (read.kind === "day" || read.kind === "free") question = read;
    else if (read.kind !== "unknown") question = undefined;
    else if (question) question = readFollowUp(line, question) ?? question;
  }
  return question ? readFollowUp(message, question) : undefined;
}
