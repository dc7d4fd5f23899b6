import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { type SyntheticEvent, useEffect, useMemo, useState } from 'react';
import { aiGet, type AiStatus, type AiText, errorMessage } from '../lib/client/ai';
import { FACTS_ONLY_NOTE, tickersInFacts } from '../lib/domain/ai/rules';
import { tickerProblem } from '../lib/domain/report/ticker';
import { asciiUpper } from '../lib/domain/text/text';
import AiMarkdown from './ai/AiMarkdown';
import { withErrorBoundary } from './ErrorBoundary';

interface Props {
  /** The report the page was built from. */
  reportDate: string;
  /** LLM_* were set when the page was built. */
  configured: boolean;
  /** PAYWALL=on: anonymous visitors get the facts and a sign-in prompt. */
  paywall: boolean;
}

type Loaded<T> = { state: 'idle' } | { state: 'loading' } | { state: 'done'; value: T } | { state: 'error'; message: string };

/** A generated (or stored) text with its label and the facts it was given. */
function GeneratedText({ label, text, note, facts, outcome }: { label: string; text: string; note: string | null; facts: string; outcome: string }) {
  const tickers = useMemo(() => tickersInFacts(facts), [facts]);
  return (
    <div className="ai-answer" data-outcome={outcome}>
      <p className="ai-label">{label}</p>
      {note && <p className="ai-note" role="note">{note}</p>}
      {text !== '' && <AiMarkdown text={text} tickers={tickers} />}
      <details className="ai-facts" open={text === ''}>
        <summary>The facts the AI was given</summary>
        <AiMarkdown text={facts} tickers={tickers} />
      </details>
    </div>
  );
}

interface Meta {
  ticker: string;
  label: string;
  facts: string;
}

/** The streamed analysis: the text after the last failed check, the check's notes, the result. */
function StreamedAnalysis({ message, streaming }: { message: UIMessage; streaming: boolean }) {
  const parts = message.parts as { type: string; text?: string; data?: unknown }[];
  const meta = parts.find((p) => p.type === 'data-meta')?.data as Meta | undefined;
  const lastCheck = parts.findLastIndex((p) => p.type === 'data-check');
  const text = parts
    .slice(lastCheck + 1)
    .filter((p) => p.type === 'text')
    .map((p) => p.text ?? '')
    .join('');
  const result = parts.find((p) => p.type === 'data-result')?.data as { outcome: string } | undefined;
  const incomplete = parts.find((p) => p.type === 'data-incomplete')?.data as { note: string } | undefined;
  if (meta === undefined) return <p role="status">Writing the analysis…</p>;
  const factsOnly = result?.outcome === 'facts-only';
  const checking = lastCheck >= 0 && !factsOnly && result === undefined ? 'A number in the first text was not in the facts: writing it again.' : null;
  return (
    <>
      {streaming && <p role="status">{checking ?? 'Writing the analysis…'}</p>}
      <GeneratedText
        label={meta.label}
        text={factsOnly || incomplete ? (incomplete ? text : '') : text}
        note={incomplete?.note ?? (factsOnly ? FACTS_ONLY_NOTE : null)}
        facts={meta.facts}
        outcome={incomplete ? 'incomplete' : (result?.outcome ?? 'streaming')}
      />
    </>
  );
}

/**
 * /ai-analysis once the visitor interacts (or arrives with ?ticker=T): the stored daily brief, and a ticker's
 * analysis (stored, else streamed from POST /api/ai/analysis with useChat). Every text is labelled AI-generated with
 * its model and report date, and shows the facts it was given.
 */
function AiAnalysis({ reportDate, configured, paywall }: Props) {
  const [status, setStatus] = useState<AiStatus | null>(null);
  const [brief, setBrief] = useState<Loaded<AiText>>({ state: 'idle' });
  const [ticker, setTicker] = useState<string | null>(null);
  const [input, setInput] = useState('');
  const [inputProblem, setInputProblem] = useState<string | null>(null);
  const [stored, setStored] = useState<Loaded<AiText | null>>({ state: 'idle' });
  const { messages, sendMessage, setMessages, status: streamStatus, error } = useChat({
    transport: new DefaultChatTransport({
      api: '/api/ai/analysis',
      credentials: 'include',
      prepareSendMessagesRequest: ({ body }) => ({ body: { ticker: (body as { ticker: string }).ticker } }),
    }),
  });

  async function analyse(wanted: string): Promise<void> {
    setTicker(wanted);
    setMessages([]);
    setStored({ state: 'loading' });
    const answer = await aiGet<AiText>(`/api/ai/analysis/${encodeURIComponent(wanted)}`);
    if (answer.ok) {
      setStored({ state: 'done', value: answer.value });
      return;
    }
    if (answer.status !== 404 || answer.facts === undefined) {
      setStored({ state: 'error', message: answer.error });
      return;
    }
    setStored({ state: 'done', value: null });
    void sendMessage({ text: `Analyse ${wanted}` }, { body: { ticker: wanted } });
  }

  useEffect(() => {
    if (!configured) return;
    const wanted = new URLSearchParams(location.search).get('ticker');
    void aiGet<AiStatus>('/api/ai/status').then((answer) => answer.ok && setStatus(answer.value));
    setBrief({ state: 'loading' });
    void aiGet<AiText>('/api/ai/brief').then((answer) => setBrief(answer.ok ? { state: 'done', value: answer.value } : { state: 'error', message: answer.error }));
    if (wanted) {
      const clean = asciiUpper(wanted.trim());
      setInput(clean);
      if (tickerProblem(clean) === null) void analyse(clean);
      else setInputProblem(`"${wanted}" is not a ticker: use ${tickerProblem(clean)}.`);
    }
    // Once, on hydration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function submit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    const clean = asciiUpper(input.trim());
    const problem = tickerProblem(clean);
    if (problem !== null) {
      setInputProblem(`Enter a ticker: ${problem}.`);
      return;
    }
    setInputProblem(null);
    history.replaceState(null, '', `/ai-analysis?ticker=${encodeURIComponent(clean)}`);
    void analyse(clean);
  }

  const signInNeeded = paywall && status !== null && !status.signedIn;
  const allowance = status?.allowance.analysis;
  const answer = messages.findLast((m) => m.role === 'assistant');

  return (
    <div className="ai-island">
      <section aria-labelledby="ai-brief-title">
        <h2 className="section-title" id="ai-brief-title">AI brief</h2>
        {!configured && <p className="ai-note" role="note">AI is not configured on this site: the facts below are the whole analysis.</p>}
        {configured && paywall && (status === null || !status.signedIn) && (
          <p className="ai-note" role="note">
            AI texts need an account: <a className="link" href={`/login?returnTo=${encodeURIComponent('/ai-analysis')}`}>sign in</a> for the AI brief and 3 analyses a day (Pro: unlimited). The facts below are free.
          </p>
        )}
        {configured && !signInNeeded && brief.state === 'idle' && <p>The AI brief of the report loads as soon as you use the page.</p>}
        {brief.state === 'loading' && <p role="status">Loading the AI brief…</p>}
        {brief.state === 'error' && !signInNeeded && <p className="ai-note" role="alert">{brief.message}</p>}
        {brief.state === 'done' && <GeneratedText {...brief.value} />}
      </section>
      <section aria-labelledby="ai-ticker-title">
        <h2 className="section-title" id="ai-ticker-title">Analyse one stock</h2>
        <form className="ai-form" method="get" action="/ai-analysis" onSubmit={submit} noValidate>
          <label htmlFor="ai-ticker">Ticker</label>
          <input
            id="ai-ticker"
            name="ticker"
            value={input}
            onChange={(e) => setInput(e.target.value)}
            maxLength={10}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={inputProblem !== null}
            aria-describedby={inputProblem ? 'ai-ticker-problem' : undefined}
          />
          <button type="submit" className="btn btn-primary" disabled={!configured || streamStatus === 'streaming' || streamStatus === 'submitted'}>
            Analyse with AI
          </button>
          {allowance && 'limit' in allowance && allowance.limit !== null && (
            <span className="ai-allowance">
              {allowance.used} of {allowance.limit} analyses used today
            </span>
          )}
        </form>
        {inputProblem && (
          <p id="ai-ticker-problem" className="ai-note" role="alert">
            {inputProblem}
          </p>
        )}
        {ticker && stored.state === 'loading' && <p role="status">Looking for a stored analysis of {ticker}…</p>}
        {stored.state === 'error' && <p className="ai-note" role="alert">{stored.message}</p>}
        {stored.state === 'done' && stored.value && <GeneratedText {...stored.value} />}
        {error && <p className="ai-note" role="alert">{errorMessage(error)}</p>}
        {answer && <StreamedAnalysis message={answer} streaming={streamStatus === 'streaming' || streamStatus === 'submitted'} />}
        <p className="ai-small">Report of {reportDate}. Analyses are stored for the report, so asking again costs nothing.</p>
      </section>
    </div>
  );
}

/** The island of /ai-analysis. */
export default withErrorBoundary(AiAnalysis, 'AiAnalysis');
