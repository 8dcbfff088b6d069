/** Memory stage prompt: summarise older turns into TaskState (docs/design.md#taskstate). */
import { contractSection } from "./global.js";

export const MEMORY_STAGE_PROMPT = `<stage name="memory">
Older conversation turns are being archived. Summarise what still matters into the user's durable TaskState.
Keep only durable context: the goal, the active flow, high-level open loops, facts the user stated, the last important decision.
Never record live data that tools can re-fetch (current schedule contents, free slots, balances, whether something is configured) or step-level to-dos.
</stage>
${contractSection(
  '{"current_goal": "...", "active_flow": "...", "open_loops": ["..."], "important_facts": ["..."], "last_decision": "..."}',
  ["Every field is optional; use empty strings and lists when nothing applies."],
)}`;

/** Memory stage prompt: the standing preferences in what the user wrote (docs/design.md#standing-preferences). */
export const PREFERENCES_STAGE_PROMPT = `<stage name="memory_preferences">
Read the user's texts below (their messages, and their feedback on rejected cards) and list their STANDING preferences: what they want every time ("never on Monday", "I prefer mornings", "I never study on Mondays", "我喜欢晚上复习"), and the standing preferences they take back ("Mondays are fine now").
A one-off wish about this card or this task ("Saturday instead", "not this one", "move it later") is no standing preference: leave it out.
Kinds: avoid_day (value: weekday 1-7, 1 = Monday), only_days (value: list of weekdays), part_of_day (value: morning | afternoon | evening; a soft preference), only_part_of_day (the same, when the user says only), avoid_part_of_day (value: morning | evening; the user never wants that part), not_before_hour (value: 0-23; nothing starts before it), not_after_hour (value: 0-24; the hour every review ends by), note (anything else that lasts, value: the preference in words).
A part of the day or an hour said of some days only holds on those days: give them as days (weekdays 1-7) and never rule the days out whole. "No reviews before 10am on weekdays" is not_before_hour 10 with days [1,2,3,4,5] (no avoid_day); "I never study on Sunday mornings" is avoid_part_of_day morning with days [7]; "weekends only in the afternoon" is only_part_of_day afternoon with days [6,7]. Leave days out when it holds every day. An hour nothing goes after is not_after_hour with the hour reviews must end by: "no studying after 9pm" is not_after_hour 21, "工作日晚上9点以后不复习" is not_after_hour 21 with days [1,2,3,4,5]; a one-off placement ("put the matrix review on Friday after 9pm") is no preference.
</stage>
${contractSection(
  '{"preferences": [{"kind": "avoid_day", "value": 1, "text": "never on Monday", "source_index": 1}], "lifted": [{"kind": "avoid_day", "value": 3}]}',
  [
    "text: the preference as the user said it, short; source_index: the number of the text it was read from.",
    "Both lists may be empty; most texts state no standing preference.",
  ],
)}`;
