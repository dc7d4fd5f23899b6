import { useStore } from '@nanostores/react';
import type { UIMessage } from 'ai';
import { type SyntheticEvent, type KeyboardEvent, useEffect, useMemo, useRef } from 'react';
import { errorMessage } from '../lib/client/ai';
import { MAX_CHAT_INPUT_CHARS } from '../lib/domain/ai/rules';
import { aiChat, answerView, chatLabel } from '../stores/ai-chat';
import { isBusy } from '../stores/ai-stream';
import AiMarkdown from './ai/AiMarkdown';
import { withErrorBoundary } from './ErrorBoundary';

interface Props {
  reportDate: string;
  model: string;
  paywall: boolean;
}

/** One assistant answer: what the tools looked up, the text with tickers linked, and an incomplete ending. */
function Answer({ message, label }: { message: UIMessage; label: string }) {
  const { lookedUp, text, tickers, incomplete, unsupported, outputs } = useMemo(() => answerView(message), [message]);
  return (
    <div className="ai-message ai-message-assistant">
      <p className="ai-label">{label}</p>
      {lookedUp.length > 0 && <p className="ai-small">Looked up: {lookedUp.join(', ')}.</p>}
      {text !== '' && <AiMarkdown text={text} tickers={tickers} />}
      {unsupported !== null && (
        <p className="ai-note" role="note">
          {unsupported}
        </p>
      )}
      {incomplete !== null && (
        <p className="ai-note" role="note">
          {incomplete}
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
 * /ai-chat: questions about the signals answered through tool calls into the report (POST /api/ai/chat, through
 * the store src/stores/ai-chat.ts). The conversation stays in this browser; a signed-in user's is also kept on the account, which
 * /account can delete.
 */
function AiChat({ reportDate, model, paywall }: Props) {
  const { input, status, ready } = useStore(aiChat.$state);
  const { messages, status: chatStatus, error } = useStore(aiChat.$conversation);
  const busy = isBusy(chatStatus);
  const field = useRef<HTMLTextAreaElement>(null);

  useEffect(() => aiChat.start(), []);

  function send(event?: SyntheticEvent) {
    event?.preventDefault();
    aiChat.send();
  }

  function keyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey) send(event);
  }

  function startOver() {
    aiChat.startOver();
    field.current?.focus();
  }

  const allowance = status?.allowance.chat;
  const label = chatLabel(model, reportDate);

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
          onChange={(e) => aiChat.setInput(e.target.value)}
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
            <button type="button" className="btn" onClick={() => aiChat.stop()}>
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
