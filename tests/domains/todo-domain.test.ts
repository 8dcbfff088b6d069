/**
 * The to-do domain on its own: its tools (text for the model, the same facts as data), the changes a write persists,
 * the requests its offline policy reads in English and Chinese (and the plan steps it writes, which read back to the
 * same request), and which domain's policy the offline router hands a prompt to.
 */
import { AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { MemoryExecutionLog } from "../../tools/memory-execution-log.js";
import { OfflineRouter } from "../../offline/router.js";
import { MAX_APPLY_ATTEMPTS, runTool } from "../../tools/runner.js";
import { scheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import { bestMatch, todoOfflinePolicy } from "../../offline/todo/policy.js";
import { parseTodoRequest, stepText } from "../../offline/todo/request-parsing.js";
import {
  applyTodoChanges,
  createTodoDomain,
  diffTodoState,
  InMemoryTodoRepository,
  parseTodoState,
  sampleTodos,
  TodoConflictError,
  todoTools,
  type TodoListData,
  type TodoState,
} from "../../tools/todo/index.js";
import { packProblems } from "../../tools/domain.js";

const tool = (name: string) => todoTools.find((candidate) => candidate.name === name)!;
const run = (state: TodoState, name: string, args: Record<string, unknown>) =>
  tool(name).run(state, tool(name).schema.parse(args));

describe("the to-do tools", () => {
  test("list_todos gives the same items as text and as data, filtered by status", () => {
    const state = sampleTodos();
    for (const status of ["open", "done", "all"] as const) {
      const listed = run(state, "list_todos", { status });
      const data = listed.data as TodoListData;
      expect(data.status).toBe(status);
      expect(data.total).toBe(4);
      expect(data.items.every((item) => status === "all" || item.done === (status === "done"))).toBe(true);
      // Every item of the data is a line of the text, and the text has no other item lines.
      expect(listed.content.split("\n").filter((line) => line.startsWith("- "))).toEqual(
        data.items.map((item) => `- ${item.id} ${JSON.stringify(item.title)} (${item.done ? "done" : "open"})`),
      );
    }
    expect((run(state, "list_todos", {}).data as TodoListData).items.map((item) => item.id)).toEqual([
      "todo-1",
      "todo-2",
      "todo-3",
    ]);
  });

  test("add gives the next id; complete, reopen and remove change one item; none mutates its input", () => {
    const state = sampleTodos();
    const frozen = structuredClone(state);
    const added = run(state, "add_todo", { title: "Call the bursar" });
    expect(added).toMatchObject({
      ok: true,
      content: 'added to-do todo-5 "Call the bursar" (open)',
      data: { item: { id: "todo-5", title: "Call the bursar", done: false } },
    });
    const completed = run(added.state!, "complete_todo", { id: "todo-5" });
    expect(completed.state!.items.find((item) => item.id === "todo-5")!.done).toBe(true);
    expect(
      run(completed.state!, "reopen_todo", { id: "todo-5" }).state!.items.find((item) => item.id === "todo-5")!.done,
    ).toBe(false);
    expect(run(state, "remove_todo", { id: "todo-2" }).state!.items.map((item) => item.id)).toEqual([
      "todo-1",
      "todo-3",
      "todo-4",
    ]);
    // After a removal the highest id still counts: an id is never handed out twice while the list holds it.
    expect(run(run(state, "remove_todo", { id: "todo-2" }).state!, "add_todo", { title: "x" }).data).toMatchObject({
      item: { id: "todo-5" },
    });
    expect(state).toEqual(frozen);
  });

  test("a call that cannot apply is refused with a reason the model can act on, and changes nothing", () => {
    const state = sampleTodos();
    expect(run(state, "complete_todo", { id: "todo-4" })).toEqual({
      ok: false,
      content: 'error: the to-do todo-4 "Print the physics lab sheet" (done) is already done',
    });
    expect(run(state, "reopen_todo", { id: "todo-1" }).ok).toBe(false);
    expect(run(state, "remove_todo", { id: "todo-99" }).content).toBe(
      'error: no to-do item has the id "todo-99" (ids: todo-1, todo-2, todo-3, todo-4); call list_todos with status=all',
    );
    expect(run(state, "add_todo", { title: "buy index cards for FLASHCARDS" }).content).toMatch(
      /already says that; nothing was added/,
    );
  });

  test("bad arguments through the runner are an error result, nothing is stored", async () => {
    const repository = new InMemoryTodoRepository();
    await repository.seed("u", sampleTodos());
    const domain = createTodoDomain({ repository });
    const context = { userId: "u", threadId: "t", stepId: null };
    expect(await runTool(domain, context, { id: "c1", name: "add_todo", arguments: { title: "" } })).toMatchObject({
      ok: false,
      applied: false,
      content: expect.stringMatching(/^Error: invalid arguments for add_todo: title/),
    });
    expect(await runTool(domain, context, { id: "c2", name: "complete_todo", arguments: {} })).toMatchObject({
      ok: false,
      content: expect.stringMatching(/invalid arguments for complete_todo: id/),
    });
    expect(await repository.load("u")).toEqual(sampleTodos());
  });

  test("a write through the runner applies once per tool-call id, and carries its data", async () => {
    const repository = new InMemoryTodoRepository();
    const domain = createTodoDomain({ repository });
    const log = new MemoryExecutionLog();
    const context = { userId: "u", threadId: "t", stepId: null };
    const first = await runTool(
      domain,
      context,
      { id: "call-add", name: "add_todo", arguments: { title: "Call mom" } },
      log,
    );
    expect(first).toMatchObject({ ok: true, applied: true, data: { item: { id: "todo-1", title: "Call mom" } } });
    expect(
      await runTool(domain, context, { id: "call-add", name: "add_todo", arguments: { title: "Call mom" } }, log),
    ).toMatchObject({ applied: false });
    expect((await repository.load("u")).items).toEqual([{ id: "todo-1", title: "Call mom", done: false }]);
  });

  test("a write whose id another write took between its load and its apply runs again on the list as it is now", async () => {
    const repository = new InMemoryTodoRepository();
    await repository.seed("u", sampleTodos());
    const domain = createTodoDomain({ repository });
    let raced = false;
    // Another thread of the user commits todo-5 after this write loaded the list, before it applies.
    const racing = {
      ...domain,
      persist: async (...args: Parameters<typeof domain.persist>) => {
        if (!raced)
          await repository.applyChanges(
            "u",
            [{ kind: "add", item: { id: "todo-5", title: "Renew the bus pass", done: false } }],
            { applyId: "other-thread" },
          );
        raced = true;
        return domain.persist(...args);
      },
    };
    const log = new MemoryExecutionLog();
    const outcome = await runTool(
      racing,
      { userId: "u", threadId: "t", stepId: null },
      { id: "call-add", name: "add_todo", arguments: { title: "Call mom" } },
      log,
    );
    expect(outcome).toMatchObject({ ok: true, applied: true, content: 'added to-do todo-6 "Call mom" (open)' });
    expect((await repository.load("u")).items.slice(4).map((item) => item.id)).toEqual(["todo-5", "todo-6"]);
    expect(await log.completed("call-add", "t")).toMatchObject({
      applied: true,
      content: 'added to-do todo-6 "Call mom" (open)',
    });
  });

  test("a conflict that stays is thrown after MAX_APPLY_ATTEMPTS runs, and the write is not claimed", async () => {
    const repository = new InMemoryTodoRepository();
    const domain = createTodoDomain({ repository });
    let attempts = 0;
    const conflicting = {
      ...domain,
      persist: async () => {
        attempts += 1;
        throw new TodoConflictError("The to-do list already has an item todo-1.");
      },
    };
    const log = new MemoryExecutionLog();
    const call = { id: "call-add", name: "add_todo", arguments: { title: "Call mom" } };
    await expect(runTool(conflicting, { userId: "u", threadId: "t", stepId: null }, call, log)).rejects.toMatchObject({
      code: "DOMAIN_CONFLICT",
    });
    expect(attempts).toBe(MAX_APPLY_ATTEMPTS);
    expect(await log.completed("call-add", "t")).toBeUndefined();
  });

  test("its packs cover every tool once; cards name the item in the user's language", () => {
    const domain = createTodoDomain({ repository: new InMemoryTodoRepository() });
    expect(packProblems(domain)).toEqual([]);
    const state = sampleTodos();
    expect(domain.describeCall!(state, "complete_todo", { id: "todo-3" })).toBe(
      'Mark the to-do "Buy index cards for flashcards" done',
    );
    expect(domain.describeCall!(state, "remove_todo", { id: "todo-1" }, "zh")).toBe(
      "删除待办“Email the calculus TA about the midterm”",
    );
    expect(domain.describeCall!(state, "add_todo", { title: "买牛奶" }, "zh")).toBe("添加待办“买牛奶”");
    expect(domain.describeCall!(state, "remove_todo", { id: "todo-99" })).toBeUndefined();
  });
});

describe("what a write persists", () => {
  const item = fc.record({
    title: fc.string({ minLength: 1, maxLength: 12 }).filter((title) => title.trim() !== ""),
    done: fc.boolean(),
  });
  const list = fc
    .array(item, { maxLength: 8 })
    .map((items): TodoState => ({ items: items.map((entry, index) => ({ id: `todo-${index + 1}`, ...entry })) }));

  test("the changes between two lists turn the first into the second (ordered as the second)", () => {
    fc.assert(
      fc.property(list, list, fc.array(fc.nat(), { maxLength: 8 }), (before, next, dropped) => {
        // `after` keeps some of `before`'s items (maybe changed) and adds new ones after them.
        const kept = before.items
          .filter((_, index) => !dropped.includes(index))
          .map((entry, index) => ({ ...entry, done: next.items[index]?.done ?? entry.done }));
        const added = next.items.map((entry, index) => ({ ...entry, id: `todo-${100 + index}` }));
        const after = { items: [...kept, ...added] };
        expect(applyTodoChanges(before, diffTodoState(before, after))).toEqual(after);
      }),
    );
  });

  test("a change that no longer fits is a TodoConflictError, and nothing of the batch applies", () => {
    const state = sampleTodos();
    expect(() =>
      applyTodoChanges(state, [
        { kind: "add", item: { id: "todo-9", title: "x", done: false } },
        { kind: "remove", id: "todo-77" },
      ]),
    ).toThrow(expect.objectContaining({ name: "TodoConflictError", code: "DOMAIN_CONFLICT" }));
    expect(() => applyTodoChanges(state, [{ kind: "add", item: { id: "todo-1", title: "x", done: false } }])).toThrow(
      /already has an item todo-1/,
    );
    expect(state).toEqual(sampleTodos());
  });

  test("a list that breaks the data model is refused with every problem", () => {
    expect(() =>
      parseTodoState({
        items: [
          { id: "todo-1", title: "a", done: false },
          { id: "todo-1", title: "b", done: true },
        ],
      }),
    ).toThrow(/two items have the id todo-1/);
    expect(() => parseTodoState({ items: [{ id: "seven", title: " ", done: "no" }] })).toThrow(
      expect.objectContaining({ name: "InvalidTodoListError", code: "INVALID_INPUT" }),
    );
  });
});

describe("to-do requests, offline", () => {
  const table: Array<[string, ReturnType<typeof parseTodoRequest>]> = [
    ["add buy milk to my todo list", { kind: "add", title: "buy milk" }],
    ['Please add "Return the books" to my to-do list, thanks', { kind: "add", title: "Return the books" }],
    ["todo: call mom", { kind: "add", title: "call mom" }],
    ["remind me to water the plants", { kind: "add", title: "water the plants" }],
    ["add a to-do: renew the bus pass", { kind: "add", title: "renew the bus pass" }],
    ["mark buy milk as done", { kind: "complete", title: "buy milk" }],
    ["tick off the library books", { kind: "complete", title: "library books" }],
    ["I finished the lab sheet", { kind: "complete", title: "lab sheet" }],
    ["reopen the lab sheet", { kind: "reopen", title: "lab sheet" }],
    ["mark the lab sheet as not done", { kind: "reopen", title: "lab sheet" }],
    ["remove buy milk from my to-do list", { kind: "remove", title: "buy milk" }],
    ["delete the to-do index cards", { kind: "remove", title: "index cards" }],
    ["show my to-dos", { kind: "list", status: "open" }],
    ["what's on my to-do list?", { kind: "list", status: "open" }],
    ["list all my to-dos", { kind: "list", status: "all" }],
    ["which to-dos are done?", { kind: "list", status: "done" }],
    ["把买牛奶加到待办", { kind: "add", title: "买牛奶" }],
    ["添加待办：交学费", { kind: "add", title: "交学费" }],
    ["完成待办 买牛奶", { kind: "complete", title: "买牛奶" }],
    ["把待办“买牛奶”标记为完成", { kind: "complete", title: "买牛奶" }],
    ["重新打开待办“打印实验单”", { kind: "reopen", title: "打印实验单" }],
    ["删除待办“买牛奶”", { kind: "remove", title: "买牛奶" }],
    ["把买牛奶从待办里删掉", { kind: "remove", title: "买牛奶" }],
    ["看看我的待办", { kind: "list", status: "open" }],
    ["列出全部待办", { kind: "list", status: "all" }],
    ["arrange my reviews for next week", { kind: "unknown" }],
    ["when am I free on Monday?", { kind: "unknown" }],
  ];
  test.each(table)("%s", (text, expected) => {
    expect(parseTodoRequest(text)).toEqual(expected);
  });

  test("every plan step the policy writes reads back to its request, in both languages", () => {
    for (const [, request] of table) {
      if (request.kind === "unknown") continue;
      for (const language of ["en", "zh"] as const)
        expect(parseTodoRequest(stepText(request, language))).toEqual(request);
    }
  });

  test("a message of 100 000 near-miss characters reads in one pass: spaces, marks, verbs without the list", () => {
    // Each took seconds (a long run of spaces before "x", 6 s; "看看" repeated, 5 s; "!" run, 6 s), the event loop
    // held; the limit on this test is the symptom's bound.
    const run = (piece: string) => piece.repeat(100_000 / piece.length);
    expect(parseTodoRequest(`add buy milk${run(" ")}x`)).toEqual({ kind: "unknown" });
    expect(parseTodoRequest(`add buy milk${run(" ")}to my to-do list${run(" ")}please!`)).toEqual({
      kind: "add",
      title: `buy milk`,
    });
    expect(parseTodoRequest(`mark buy milk${run("!")}x`)).toEqual({ kind: "complete", title: `buy milk${run("!")}x` });
    expect(parseTodoRequest(`remind me to${run(" ")}\ncall mom`)).toEqual({ kind: "add", title: "call mom" });
    expect(parseTodoRequest(run("show "))).toEqual({ kind: "unknown" });
    expect(parseTodoRequest(`${run("show ")}todos`)).toEqual({ kind: "list", status: "open" });
    expect(parseTodoRequest(run("看看"))).toEqual({ kind: "unknown" });
    expect(parseTodoRequest(`add buy milk${run(" ,")}thanks`)).toEqual({ kind: "unknown" });
  }, 10_000);

  test("an item is found by its title, part of it or its words; open items first for complete, done ones for reopen", () => {
    const items = [...sampleTodos().items, { id: "todo-5", title: "Print the physics lab sheet", done: false }];
    expect(bestMatch(items, { kind: "complete", title: "library books" })?.id).toBe("todo-2");
    expect(bestMatch(items, { kind: "complete", title: "physics lab sheet" })?.id).toBe("todo-5");
    expect(bestMatch(items, { kind: "reopen", title: "physics lab sheet" })?.id).toBe("todo-4");
    expect(bestMatch(items, { kind: "remove", title: "TA calculus" })?.id).toBe("todo-1");
    expect(bestMatch(items, { kind: "remove", title: "groceries" })).toBeUndefined();
  });
});

describe("the offline router", () => {
  const router = new OfflineRouter([
    { domain: "schedule", policy: scheduleOfflinePolicy() },
    { domain: "todo", policy: todoOfflinePolicy() },
  ]);
  const chatPrompt = (message: string) => [
    new SystemMessage('<stage name="chat">'),
    new HumanMessage(`<instruction>\nLatest user message: ${message}\n</instruction>`),
  ];
  const executePrompt = (step: string, goal: string) => [
    new SystemMessage('<stage name="execute">'),
    new HumanMessage(
      `<requirement>${goal}</requirement>\n<execution_context>\nCurrent step (1 of 1): ${step}\n</execution_context>`,
    ),
    new HumanMessage(`<conversation>\nuser: ${goal}\n</conversation>`),
    new HumanMessage("<instruction>\nDecide the next action.\n</instruction>"),
  ];

  test("hands each prompt to the domain it is about; a tie goes to the domain served first", () => {
    expect(router.policyFor(chatPrompt("add buy milk to my to-do list")).domain).toBe("todo");
    expect(router.policyFor(chatPrompt("add 'review the notes' to my to-do list")).domain).toBe("todo");
    expect(router.policyFor(chatPrompt("当我周一有空吗？把复习安排到下周")).domain).toBe("schedule");
    expect(router.policyFor(chatPrompt("when am I free on Monday?")).domain).toBe("schedule");
    expect(router.policyFor(chatPrompt("mark buy milk as done")).domain).toBe("todo");
    expect(router.policyFor(chatPrompt("blorp the frobnicator")).domain).toBe("schedule");
    expect(router.policyFor(executePrompt('Mark the to-do "buy milk" done', "mark buy milk done")).domain).toBe("todo");
    expect(router.policyFor(executePrompt("Verify the schedule", "arrange my week")).domain).toBe("schedule");
    // The same policies in the other order: what neither reads goes to the first served.
    const todoFirst = new OfflineRouter([...router.policies].reverse());
    expect(todoFirst.policyFor(chatPrompt("blorp the frobnicator")).domain).toBe("todo");
    expect(todoFirst.policyFor(chatPrompt("when am I free on Monday?")).domain).toBe("schedule");
  });

  test("answers as the chosen policy does", async () => {
    const reply = await router.invoke(chatPrompt("show my to-dos"));
    expect(JSON.parse(String((reply as AIMessage).content))).toMatchObject({
      intent: "task",
      reason: "a to-do request (list)",
    });
  });
});
