/** The AI routes that stream (a UI message stream), as transports for the AI stores' chats (src/stores/ai-stream.ts). */
import { DefaultChatTransport, type UIMessage } from 'ai';

/** POST /api/ai/analysis: sends `{ticker}` (the send's body) instead of the messages. */
export function analysisTransport(): DefaultChatTransport<UIMessage> {
  return new DefaultChatTransport({
    api: '/api/ai/analysis',
    credentials: 'include',
    prepareSendMessagesRequest: ({ body }) => ({ body: { ticker: (body as { ticker: string }).ticker } }),
  });
}

/** POST /api/ai/chat: sends `{id, messages}`. */
export function chatTransport(): DefaultChatTransport<UIMessage> {
  return new DefaultChatTransport({ api: '/api/ai/chat', credentials: 'include' });
}
