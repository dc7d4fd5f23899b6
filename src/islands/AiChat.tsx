import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { type SyntheticEvent, type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { aiGet, type AiStatus, errorMessage } from '../lib/client/ai';
import { aiLabel, MAX_CHAT_INPUT_CHARS, tickersInToolOutput } from '../lib/domain/ai/rules';
import AiMarkdown from './ai/AiMarkdown';
import { withErrorBoundary } from './ErrorBoundary';

interface Props {
  reportDate: string;
  model: string;
  paywall: boolean;
}

/** Where the conversation stays in this browser. */
const STORAGE_KEY = 'ai-chat';

const TOOL_NAMES: Record<string, string> = {
  findTicker: 'searched the report',
  readTicker: "read a stock's record",
  listQualified: 'listed qualified stocks',
  compareTickers: 'compared stocks',
  explainRules: 'read the C-Score rules',
};

function newId(): string {
  return `chat-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

function restored(): { id: string; messages: UIMessage[] } {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as { id?: string; messages?: UIMessage[] } | null;
    if (saved && typeof saved.id === 'string' && Array.isArray(saved.messages)) return { id: saved.id, messages: saved.messages };
  } catch {
    // A broken saved conversation: start a new one.
  }
  return { id: newId(), messages: [] };
}

/** One assistant answer: what the tools looked up, the text with tickers linked, and an incomplete ending. */
function Answer({ message, label }: { message: UIMessage; label: string }) {
  const parts = message.parts as { type: string; text?: string; output?: unknown; state?: string; data?: unknown }[];
  const tickers = useMemo(() => {
    const found = new Set<string>();
    for (const part of parts) if (part.type.startsWith('tool-') && part.output !== undefined) tickersInToolOutput(part.output, found);
    return found;
  }, [parts]);
  const tools = parts.filter((p) => p.type.startsWith('tool-')).map((p) => TOOL_NAMES[p.type.slice(5)] ?? p.type.slice(5));
  const text = parts
    .filter((p) => p.type === 'text')
    .map((p) => p.text ?? '')
    .join('\n\n');
  const incomplete = parts.find((p) => p.type === 'data-incomplete')?.data as { note: string } | undefined;
  const unsupported = parts.find((p) => p.type === 'data-unsupported')?.data as { note: string } | undefined;
  const outputs = parts.filter((p) => p.type.startsWith('tool-') && p.output !== undefined).map((p) => p.output);
  return (
    <div className="ai-message ai-message-assistant">
      <p className="ai-label">{label}</p>
      {tools.length > 0 && <p className="ai-small">Looked up: {[...new Set(tools)].join(', ')}.</p>}
      {text !== '' && <AiMarkdown text={text} tickers={tickers} />}
      {unsupported && (
        <p className="ai-note" role="note">
          {unsupported.note}
        </p>
      )}
      {incomplete && (
        <p className="ai-note" role="note">
          {incomplete.note}
        </p>
      )}
      {outputs.length > 0 && (
        <details className="ai-facts">
          <summary>What the AI looked up</summary>
          <pre className="ai-lookup">{JSON.stringify(outputs, null, 2)}</pre>
        </details>
      )}
    </div>
  );
}

/**
 * /ai-chat: questions about the signals answered through tool calls into the report (useChat over POST
 * /api/ai/chat). The conversation stays in this browser; a signed-in user's is also kept on the account, which
 * /account can delete.
 */
function AiChat({ reportDate, model, paywall }: Props) {
  const [initial] = useState(restored);
  const [chatId, setChatId] = useState(initial.id);
  const [input, setInput] = useState('');
  const [status, setStatus] = useState<AiStatus | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const { messages, sendMessage, setMessages, status: chatStatus, error, stop } = useChat({
    id: chatId,
    messages: initial.messages,
    transport: new DefaultChatTransport({ api: '/api/ai/chat', credentials: 'include' }),
    onFinish: () => void aiGet<AiStatus>('/api/ai/status').then((answer) => answer.ok && setStatus(answer.value)),
  });
  const busy = chatStatus === 'submitted' || chatStatus === 'streaming';
  // The server-rendered form stays disabled until the island runs: nothing typed before then is lost.
  const [ready, setReady] = useState(false);

  useEffect(() => {
    setReady(true);
    void aiGet<AiStatus>('/api/ai/status').then((answer) => answer.ok && setStatus(answer.value));
  }, []);

  useEffect(() => {
    if (busy) return;
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify({ id: chatId, messages }));
    } catch {
      // Storage full or off: the conversation lives as long as the page.
    }
  }, [messages, busy, chatId]);

  function send(event?: SyntheticEvent) {
    event?.preventDefault();
    const text = input.trim();
    if (text === '' || busy || text.length > MAX_CHAT_INPUT_CHARS) return;
    void sendMessage({ text });
    setInput('');
  }

  function keyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey) send(event);
  }

  function startOver() {
    stop();
    setMessages([]);
    setChatId(newId());
    localStorage.removeItem(STORAGE_KEY);
    field.current?.focus();
  }

  const allowance = status?.allowance.chat;
  const label = aiLabel(model, reportDate).replace(' Every number in it is checked against the facts below.', '');

  return (
    <div className="ai-chat">
      {paywall && status !== null && !status.signedIn && (
        <p className="ai-note" role="note">
          The AI chat needs an account: <a className="link" href={`/login?returnTo=${encodeURIComponent('/ai-chat')}`}>sign in</a> for 20 messages a day (Pro: unlimited).
        </p>
      )}
      <div className="ai-log" role="log" aria-live="polite" aria-label="Conversation">
        {messages.length === 0 && <p className="ai-small">Ask about the signals of the report: for example "Which bullish energy stocks are there today?", "Compare XOM and CVX" or "Explain the C-Score rules".</p>}
        {messages.map((message) =>
          message.role === 'user' ? (
            <div key={message.id} className="ai-message ai-message-user">
              <p className="sr-only">You asked:</p>
              <p>{message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')}</p>
            </div>
          ) : (
            <Answer key={message.id} message={message} label={label} />
          ),
        )}
        {chatStatus === 'submitted' && <p role="status">Looking it up…</p>}
      </div>
      {error && (
        <p className="ai-note" role="alert">
          {errorMessage(error)}
        </p>
      )}
      <form className="ai-chat-form" onSubmit={send}>
        <label htmlFor="ai-question">Your question</label>
        <textarea
          id="ai-question"
          ref={field}
          rows={3}
          value={input}
          maxLength={MAX_CHAT_INPUT_CHARS}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={keyDown}
          aria-describedby="ai-question-help"
          disabled={!ready}
        />
        <p id="ai-question-help" className="ai-small">
          {input.length.toLocaleString('en-US')} of {MAX_CHAT_INPUT_CHARS.toLocaleString('en-US')} characters. Enter sends, Shift+Enter starts a new line.
          {allowance && 'limit' in allowance && allowance.limit !== null && ` ${allowance.used} of ${allowance.limit} messages used today.`}
        </p>
        <div className="ai-actions">
          <button type="submit" className="btn btn-primary" disabled={busy || input.trim() === ''}>
            Send
          </button>
          {busy && (
            <button type="button" className="btn" onClick={() => stop()}>
              Stop
            </button>
          )}
          <button type="button" className="btn" onClick={startOver} disabled={messages.length === 0}>
            New conversation
          </button>
        </div>
      </form>
      <p className="ai-small">
        This conversation stays in this browser.{status?.signedIn ? ' It is also kept on your account; delete it on your account page.' : ''}
      </p>
    </div>
  );
}

/** The island of /ai-chat. */
export default withErrorBoundary(AiChat, 'AiChat');
