/** Streaming: Tempo's typed custom-stream events, and their OpenAI-compatible SSE form. */
export { emit, emitAssistantText, splitPseudoStream, type TempoEvent, type TempoEventKind } from "./events.js";
export {
  formatServerSentEvent,
  isTempoEvent,
  OpenAIChunkEncoder,
  pendingInterrupts,
  SSE_DONE,
  streamOpenAISse,
  type FinalStateLike,
  type OpenAIChatCompletionChunk,
  type OpenAIChunkChoice,
  type OpenAIChunkDelta,
  type OpenAIChunkOptions,
  type OpenAIFinishReason,
  type OpenAISseOptions,
  type TempoChunkExtension,
  type TempoChunkExtensionKind,
} from "./openai-sse.js";
