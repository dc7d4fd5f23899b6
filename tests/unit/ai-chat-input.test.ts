/** What POST /api/ai/chat takes (src/server/ai/chat-input.ts), without HTTP: the question last, the limits, text parts only. */
import type { UIMessage } from 'ai';
import { HTTPException } from 'hono/http-exception';
import { describe, expect, it } from 'vitest';
import { MAX_CHAT_INPUT_CHARS, MAX_CHAT_MESSAGES, MAX_CHAT_TOTAL_CHARS } from '../../src/lib/domain/ai/rules';
import { chatInput } from '../../src/server/ai/chat-input';

function said(role: 'user' | 'assistant', text: string, id = `${role}-${text.length}`): UIMessage {
  return { id, role, parts: [{ type: 'text', text }] };
}

function refusalOf(sent: UIMessage[]): { status: number; message: string } {
  try {
    chatInput(sent);
  } catch (error) {
    if (error instanceof HTTPException) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('a chat request', () => {
  it('reads the last message as the question and only the text parts of the conversation', () => {
    const tool = { id: 'a1', role: 'assistant', parts: [{ type: 'tool-readTicker', toolCallId: 't', state: 'output-available', input: {}, output: { ticker: 'XOM' } }] } as UIMessage;
    const input = chatInput([said('user', 'Hi'), tool, said('user', 'Compare XOM and CVX')]);
    expect(input.question).toBe('Compare XOM and CVX');
    expect(input.messages).toHaveLength(3);
    expect(input.texts.map((m) => m.id)).toEqual(['user-2', 'user-19']);
  });

  it(`keeps the last ${MAX_CHAT_MESSAGES} messages`, () => {
    const sent = Array.from({ length: MAX_CHAT_MESSAGES + 5 }, (_, i) => said(i % 2 === 0 ? 'user' : 'assistant', `m${i}`, `m${i}`));
    const input = chatInput(sent);
    expect(input.messages).toHaveLength(MAX_CHAT_MESSAGES);
    expect(input.messages[0]!.id).toBe('m5');
  });

  it('refuses a conversation whose last message is not a question', () => {
    const expected = { status: 400, message: 'The last message must be your question, as a text part.' };
    expect(refusalOf([said('user', 'Hi'), said('assistant', 'Hello')])).toEqual(expected);
    expect(refusalOf([said('user', '   ')])).toEqual(expected);
  });

  it(`refuses a question over ${MAX_CHAT_INPUT_CHARS.toLocaleString('en-US')} characters and a conversation over ${MAX_CHAT_TOTAL_CHARS.toLocaleString('en-US')}`, () => {
    expect(chatInput([said('user', 'x'.repeat(MAX_CHAT_INPUT_CHARS))]).question).toHaveLength(2000);
    expect(refusalOf([said('user', 'x'.repeat(MAX_CHAT_INPUT_CHARS + 1))])).toEqual({
      status: 400,
      message: 'Your question has 2,001 characters; the limit is 2,000. Shorten it and send it again.',
    });
    const long = Array.from({ length: 20 }, (_, i) => said(i % 2 === 0 ? 'assistant' : 'user', 'y'.repeat(2000), `l${i}`));
    expect(chatInput(long).texts).toHaveLength(20);
    expect(refusalOf([...long, said('user', 'one more')])).toEqual({
      status: 400,
      message: 'The conversation has 40,008 characters; the limit is 40,000. Start a new conversation.',
    });
  });
});
