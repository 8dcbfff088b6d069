/**
 * Finds the task a phrase names, among tasks read from a tool result: by id
 * (exactly), or by name, fuzzily and case-insensitively — words of the name
 * and the id count fully, words of the task class a little less, rarer words
 * more than common ones ("review" is in many names, "matrix" in one), a
 * prefix of four letters or more counts ("calc"), and Chinese is compared by
 * character pairs. A number is not a word like the others: a phrase that says
 * a number the task's name does not have names another task ("week 3 problem
 * set" is not "week 1 problem set", however many words they share).
 */
import type { ListedTask } from "../../tools/schedule/tools/index.js";
import { SAMPLE_ALIASES } from "../../tools/schedule/sample-data.js";

/** The other names a task, class or event goes by (the sample week's Chinese names: `SAMPLE_ALIASES`). */
export function aliasesOf(id: string | undefined): readonly string[] {
  return id === undefined ? [] : (SAMPLE_ALIASES[id] ?? []);
}

/** A phrase without spaces and punctuation, lowercase: how aliases are compared ("极限 复习" = "极限复习"). */
function squeezed(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9\u3400-\u9fff]+/g, "");
}

/** The best match for a phrase, and whether another task matched as well. */
export interface TaskMatch {
  task: ListedTask;
  /** Other tasks with the same score (the phrase is ambiguous among them). */
  alsoMatching: ListedTask[];
}

const STOP_WORDS = new Set([
  "my",
  "the",
  "a",
  "an",
  "task",
  "tasks",
  "item",
  "items",
  "please",
  "session",
  "sessions",
  "to",
  "for",
  "of",
  "on",
  "in",
  "this",
  "that",
  "one",
  "and",
  "with",
  "event",
  // Common typos of "the": "I did teh matrix review".
  "teh",
  "hte",
  "的",
  "我",
  "任务",
]);

/** Lowercase words (English, digits, singular) and Chinese character pairs of a text. */
export function matchTokens(text: string): string[] {
  const tokens: string[] = [];
  const lower = text.toLowerCase().replace(/[-_./:]+/g, " ");
  for (const word of lower.match(/[a-z0-9]+/g) ?? []) {
    if (STOP_WORDS.has(word)) continue;
    tokens.push(word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word);
  }
  for (const run of lower.match(/[\u3400-\u9fff]+/g) ?? []) {
    if (run.length === 1) tokens.push(run);
    for (let index = 0; index + 1 < run.length; index += 1) tokens.push(run.slice(index, index + 2));
  }
  return tokens.filter((token) => !STOP_WORDS.has(token));
}

/** The numbers a text says, each once ("week 03 problem set", "第3周习题" → 3). */
function numbersIn(text: string): Set<number> {
  return new Set((text.match(/\d+/g) ?? []).map(Number));
}

/**
 * True when the phrase says a number the task's name (or a name it goes by) does not have, and the name has one: the
 * phrase names another task of a numbered kind ("week 3 problem set" beside "week 1 problem set"). A name without a
 * number is not ruled out by one.
 */
function saysOtherNumber(said: ReadonlySet<number>, task: ListedTask): boolean {
  if (said.size === 0) return false;
  const own = numbersIn([task.name, ...aliasesOf(task.id)].join(" "));
  return own.size > 0 && [...said].some((number) => !own.has(number));
}

/** How well `phrase` names each candidate; 0 when it does not. */
function scores(phrase: string, candidates: readonly ListedTask[]): number[] {
  const wanted = matchTokens(phrase);
  if (wanted.length === 0) return candidates.map(() => 0);
  const said = numbersIn(phrase);
  const own = candidates.map(
    (task) => new Set([...matchTokens(task.name), ...matchTokens(task.id), ...aliasesOf(task.id).flatMap(matchTokens)]),
  );
  const category = candidates.map(
    (task) => new Set([...matchTokens(task.categoryId ?? ""), ...aliasesOf(task.categoryId).flatMap(matchTokens)]),
  );
  // Rarer words weigh more: a word every candidate has tells nothing apart.
  const weight = (token: string) =>
    Math.log(1 + candidates.length / (1 + own.filter((tokens) => hasToken(tokens, token)).length));
  const total = wanted.reduce((sum, token) => sum + weight(token), 0) || 1;
  const flat = phrase.toLowerCase().replace(/[^a-z0-9\u3400-\u9fff]+/g, "");
  return candidates.map((task, index) => {
    // Half the phrase is enough, but not when its number is another: "week 3" never means "week 1".
    if (saysOtherNumber(said, task)) return 0;
    let score = 0;
    for (const token of wanted) {
      if (hasToken(own[index]!, token)) score += weight(token);
      else if (hasToken(category[index]!, token)) score += 0.6 * weight(token);
      // A typo of a word of the name ("reveiw", "matirx") counts a little less than the word.
      else if (hasTypoOf(own[index]!, token)) score += 0.8 * weight(token);
    }
    const name = task.name.toLowerCase().replace(/[^a-z0-9\u3400-\u9fff]+/g, "");
    if (flat.length >= 3 && name.includes(flat)) score += total * 0.5;
    // Most of the phrase must match: a single shared common word is no match.
    return score / total >= 0.5 ? score / total : 0;
  });
}

/** True when the set holds the token, or a word it is a prefix of (four letters or more). */
function hasToken(tokens: ReadonlySet<string>, token: string): boolean {
  if (tokens.has(token)) return true;
  if (token.length < 4 || !/^[a-z]+$/.test(token)) return false;
  for (const candidate of tokens) if (candidate.startsWith(token)) return true;
  return false;
}

/** True when the set holds a word `token` is one typo away from (five letters or more: one letter wrong, missing, extra, or two swapped). */
function hasTypoOf(tokens: ReadonlySet<string>, token: string): boolean {
  if (token.length < 5 || !/^[a-z]+$/.test(token)) return false;
  for (const candidate of tokens) if (candidate.length >= 5 && isOneTypoApart(candidate, token)) return true;
  return false;
}

/** True when `a` and `b` differ by one edit: a letter changed, added or dropped, or two neighbours swapped. */
export function isOneTypoApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) [endA, endB] = [endA - 1, endB - 1];
  const restA = a.slice(start, endA);
  const restB = b.slice(start, endB);
  if (restA.length <= 1 && restB.length <= 1) return true;
  return restA.length === 2 && restB.length === 2 && restA[0] === restB[1] && restA[1] === restB[0];
}

/** The task `phrase` names among `candidates` (an exact id first), or undefined when none matches. */
export function matchTask(phrase: string, candidates: readonly ListedTask[]): TaskMatch | undefined {
  const trimmed = phrase.trim();
  const byId = candidates.find((task) => task.id.toLowerCase() === trimmed.toLowerCase());
  if (byId) return { task: byId, alsoMatching: [] };
  const byName = candidates.filter((task) => task.name.toLowerCase() === trimmed.toLowerCase());
  if (byName.length > 0) return { task: byName[0]!, alsoMatching: byName.slice(1) };
  // Another name it goes by, said whole ("极限复习", "the essay").
  const byAlias = candidates.filter((task) =>
    aliasesOf(task.id).some((alias) => squeezed(alias) === squeezed(trimmed)),
  );
  if (byAlias.length > 0) return { task: byAlias[0]!, alsoMatching: byAlias.slice(1) };
  const scored = scores(trimmed, candidates);
  const best = Math.max(0, ...scored);
  if (best === 0) return undefined;
  const top = candidates.filter((_, index) => scored[index] === best);
  return { task: top[0]!, alsoMatching: top.slice(1) };
}

/** Words that say what kind of session, not which: "the calculus reviews" names the class. */
export const KIND_WORDS = new Set([
  "review",
  "revision",
  "exercise",
  "practice",
  "study",
  "homework",
  "reading",
  "work",
  "stuff",
  "thing",
  "session",
  "prep",
  "coursework",
  "assignment",
  "复习",
  "练习",
  "作业",
  "习题",
  "任务",
]);

/** True when `phrase` says only what kind of session ("review", "the review", "复习"): it names no task. */
export function namesKindOnly(phrase: string): boolean {
  const tokens = matchTokens(phrase);
  return tokens.every((token) => KIND_WORDS.has(token));
}

/**
 * The candidates of the task class a phrase names ("the calculus reviews", "linear algebra", "微积分复习"): every word
 * of the phrase, beside the kind of session, is a word of the class's id. Empty when the phrase names no class, or
 * names a task itself by its id or whole name.
 */
export function classMembers(phrase: string, candidates: readonly ListedTask[]): ListedTask[] {
  const wanted = matchTokens(phrase).filter((token) => !KIND_WORDS.has(token));
  const named = (task: ListedTask) =>
    task.id.toLowerCase() === phrase.trim().toLowerCase() ||
    task.name.toLowerCase() === phrase.trim().toLowerCase() ||
    aliasesOf(task.id).some((alias) => squeezed(alias) === squeezed(phrase));
  if (wanted.length === 0 || candidates.some(named)) return [];
  // The class said by a name it goes by, with the kind of session around it ("微积分复习", "线性代数的复习").
  const bare = squeezed(
    [...KIND_WORDS].reduce((text, word) => text.replaceAll(word, " "), phrase.toLowerCase()).replace(/的/g, " "),
  );
  return candidates.filter((task) => {
    const classTokens = new Set(matchTokens(task.categoryId ?? ""));
    if (classTokens.size > 0 && wanted.every((token) => hasToken(classTokens, token))) return true;
    return bare.length >= 2 && aliasesOf(task.categoryId).some((alias) => squeezed(alias) === bare);
  });
}

/** Every candidate `phrase` names: a whole class's, or those with the best score (a phrase like "linear algebra" may name several). */
export function matchTasks(phrase: string, candidates: readonly ListedTask[]): ListedTask[] {
  const members = classMembers(phrase, candidates);
  if (members.length > 0) return members;
  const match = matchTask(phrase, candidates);
  return match ? [match.task, ...match.alsoMatching] : [];
}

/** The task class `phrase` names among `classes` (by name, id or alias, as a task is matched), or undefined. */
export function matchClass<T extends { id: string; name: string }>(
  phrase: string,
  classes: readonly T[],
): T | undefined {
  const listed: ListedTask[] = classes.map((category) => ({
    id: category.id,
    name: category.name,
    kind: "pending",
    duration: 0,
    categoryId: category.id,
    slots: [],
    locked: false,
    canEmbed: false,
  }));
  const match = matchTask(phrase, listed);
  return match ? classes.find((category) => category.id === match.task.id) : undefined;
}
