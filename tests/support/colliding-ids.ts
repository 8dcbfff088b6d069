/** User-id pairs (owner, other) built to collide in a naive namespace or a LIKE prefix search (PostgresStore's). */
export const COLLIDING_USER_IDS: ReadonlyArray<readonly [string, string]> = [
  ["alice", "mallory"],
  ["alice", "alice.facts"],
  ["a_ice", "alice"],
  ["al%", "alice"],
  ["alice", "ALICE"],
  ["a.b", "a~2eb"],
  ["alice\\", "alice"],
  ["alice", "alice "],
];
