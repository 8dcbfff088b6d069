import { InMemoryStore } from "@langchain/langgraph";
import { offlineTempo, converse, halfPlacedWeek } from "../tests/graph/support/offline-conversation.js";
const store = new InMemoryStore();
const tempo = await offlineTempo(halfPlacedWeek(), () => new Date("2024-03-12T09:30:00+08:00"), { store });
let seen = 0;
for (const say of process.argv.slice(2)) {
  const out = await converse(tempo, say, (card) => { console.log("   CARD", card.action, JSON.stringify(card.args).slice(0, 300)); return card.action === "ask_user" ? { type: "response", args: "never mind" } : { type: "accept", args: null }; }, "t1");
  console.log(">>", say, "\n", out.said.slice(seen).join("\n---\n").slice(0, 1500), "\n");
  seen = out.said.length;
}
