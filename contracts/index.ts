export * from "./chat.js";
export * from "./plan.js";
export * from "./execute.js";
export * from "./json-extraction.js";
export * from "./parse-contract.js";
export * from "./cards.js";
