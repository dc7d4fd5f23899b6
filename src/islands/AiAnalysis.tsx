import { useStore } from '@nanostores/react';
import type { UIMessage } from 'ai';
import { type SyntheticEvent, useEffect, useMemo } from 'react';
import { errorMessage } from '../lib/client/ai';
import { tickersInFacts } from '../lib/domain/ai/rules';
import { aiAnalysis, streamedView } from '../stores/ai-analysis';
import { isBusy } from '../stores/ai-stream';
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

/** The streamed analysis (streamedView): its status line while streaming, then the text with its label and facts. */
function StreamedAnalysis({ message, streaming }: { message: UIMessage; streaming: boolean }) {
  const view = streamedView(message);
  if (view === null) return <p role="status">Writing the analysis…</p>;
  return (
    <>
      {streaming && <p role="status">{view.progress}</p>}
      <GeneratedText label={view.label} text={view.text} note={view.note} facts={view.facts} outcome={view.outcome} />
    </>
  );
}

/**
 * /ai-analysis once the visitor interacts (or arrives with ?ticker=T): the stored daily brief, and a ticker's
 * analysis (stored, else streamed from POST /api/ai/analysis), from the store src/stores/ai-analysis.ts. Every text is labelled AI-generated with
 * its model and report date, and shows the facts it was given.
 */
function AiAnalysis({ reportDate, configured, paywall }: Props) {
  const { status, brief, ticker, input, inputProblem, stored } = useStore(aiAnalysis.$state);
  const { messages, status: streamStatus, error } = useStore(aiAnalysis.$stream);
  const streaming = isBusy(streamStatus);

  useEffect(() => {
    aiAnalysis.start(configured, location.search);
    // Once, on hydration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function submit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    const clean = aiAnalysis.submit();
    if (clean !== null) history.replaceState(null, '', `/ai-analysis?ticker=${encodeURIComponent(clean)}`);
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
            onChange={(e) => aiAnalysis.setInput(e.target.value)}
            maxLength={10}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={inputProblem !== null}
            aria-describedby={inputProblem ? 'ai-ticker-problem' : undefined}
          />
          <button type="submit" className="btn btn-primary" disabled={!configured || streaming}>
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
        {answer && <StreamedAnalysis message={answer} streaming={streaming} />}
        <p className="ai-small">Report of {reportDate}. Analyses are stored for the report, so asking again costs nothing.</p>
      </section>
    </div>
  );
}

/** The island of /ai-analysis. */
export default withErrorBoundary(AiAnalysis, 'AiAnalysis');
