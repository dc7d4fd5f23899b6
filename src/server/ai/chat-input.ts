/** What a chat request may send: the question last, within the question's and the conversation's length limits. */
import type { UIMessage } from 'ai';
import { MAX_CHAT_INPUT_CHARS, MAX_CHAT_MESSAGES, MAX_CHAT_TOTAL_CHARS } from '../../lib/domain/ai/rules';
import { refusal } from '../errors';

/** A chat request's conversation as the model reads it. */
export interface ChatInput {
  /** The last MAX_CHAT_MESSAGES messages, as the answer continues them. */
  messages: UIMessage[];
  /** The last message's text. */
  question: string;
  /** The messages' text parts only: tool answers a browser sends back are never read. */
  texts: UIMessage[];
}

/** The conversation of a chat request, or the 400 that says which limit it broke. */
export function chatInput(sent: readonly UIMessage[]): ChatInput {
  const messages = sent.slice(-MAX_CHAT_MESSAGES);
  const last = messages.at(-1);
  const question = last?.parts.map((part) => (part.type === 'text' ? part.text : '')).join('') ?? '';
  if (last?.role !== 'user' || question.trim() === '') throw refusal(400, 'The last message must be your question, as a text part.');
  if (question.length > MAX_CHAT_INPUT_CHARS) throw refusal(400, `Your question has ${question.length.toLocaleString('en-US')} characters; the limit is ${MAX_CHAT_INPUT_CHARS.toLocaleString('en-US')}. Shorten it and send it again.`);
  const texts = messages.map((m) => ({ ...m, parts: m.parts.filter((part) => part.type === 'text') })).filter((m) => m.parts.length > 0);
  const total = texts.reduce((sum, m) => sum + m.parts.reduce((n, part) => n + (part.type === 'text' ? part.text.length : 0), 0), 0);
  if (total > MAX_CHAT_TOTAL_CHARS) throw refusal(400, `The conversation has ${total.toLocaleString('en-US')} characters; the limit is ${MAX_CHAT_TOTAL_CHARS.toLocaleString('en-US')}. Start a new conversation.`);
  return { messages, question, texts };
}
