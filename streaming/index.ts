/** Streaming: Tempo's typed custom-stream events (their OpenAI-compatible SSE form is the server's: server/openai-sse.ts). */
export { emit, emitAssistantText, splitPseudoStream, type TempoEvent, type TempoEventKind } from "./events.js";
