/** A card of two writes, for the card contract's and the resume reader's tests. */
import type { Card } from "../../contracts/cards.js";
import { buildCard } from "../../review/interrupt-cards.js";

/** A card holding two writes (the batch shape a later issue uses). */
export const BATCH: Card = {
  ...buildCard(
    "confirm_tool",
    [
      {
        name: "place",
        args: { task_id: "a", day: 1, slot_start: 3 },
        description: "Place a",
        allowed: ["approve", "edit", "reject"],
      },
      {
        name: "move",
        args: { task_id: "b", day: 2, slot_start: 5 },
        description: "Move b",
        allowed: ["approve", "reject"],
      },
    ],
    {
      action_request: { action: "place", args: { task_id: "a", day: 1, slot_start: 3 } },
      config: { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true },
    },
  ),
  card_id: "0123456789abcdef0123456789abcdef",
};
