/**
 * A tiny second tool domain for graph tests: a per-user list of notes with
 * one read tool and two write tools. It shows the graph takes any domain,
 * and counts how often each write was applied.
 */
import { z } from "zod";
import type { ToolDomain } from "../../tools/domain.js";

export interface NotesState {
  notes: string[];
}

export interface NotesDomain extends ToolDomain<NotesState> {
  /** Writes applied per user, in order (one entry per apply). */
  applied: Array<{ userId: string; applyId: string }>;
  /** Current notes per user. */
  data: Map<string, NotesState>;
}

/** Creates an in-memory notes domain, optionally seeded for some users. */
export function createNotesDomain(seed: Record<string, string[]> = {}): NotesDomain {
  const data = new Map<string, NotesState>(
    Object.entries(seed).map(([userId, notes]) => [userId, { notes: [...notes] }]),
  );
  const appliedIds = new Set<string>();
  const applied: NotesDomain["applied"] = [];
  return {
    name: "notes",
    version: "1",
    description: "A list of short notes the user keeps.",
    data,
    applied,
    tools: [
      {
        name: "list_notes",
        kind: "read",
        description: "Lists the user's notes, numbered from 1.",
        schema: z.object({}),
        run: (state) => ({
          ok: true,
          content: state.notes.length
            ? state.notes.map((note, index) => `${index + 1}. ${note}`).join("\n")
            : "(no notes)",
        }),
      },
      {
        name: "add_note",
        kind: "write",
        description: "Adds one note at the end of the list.",
        schema: z.object({ text: z.string().min(1).describe("The note's text.") }),
        run: (state, args: { text: string }) => ({
          ok: true,
          content: `added note ${state.notes.length + 1}: ${args.text}`,
          state: { notes: [...state.notes, args.text] },
        }),
      },
      {
        name: "remove_note",
        kind: "write",
        description: "Removes the note with the given number.",
        schema: z.object({ number: z.number().int().min(1).describe("The note's number, from list_notes.") }),
        run: (state, args: { number: number }) =>
          args.number > state.notes.length
            ? { ok: false, content: `Error: there is no note ${args.number}; there are ${state.notes.length}.` }
            : {
                ok: true,
                content: `removed note ${args.number}`,
                state: { notes: state.notes.filter((_, index) => index !== args.number - 1) },
              },
      },
    ],
    async load(userId) {
      return structuredClone(data.get(userId) ?? { notes: [] });
    },
    async persist(userId, _before, after, { applyId }) {
      if (appliedIds.has(applyId)) return { applied: false };
      appliedIds.add(applyId);
      applied.push({ userId, applyId });
      data.set(userId, structuredClone(after));
      return { applied: true };
    },
  };
}
