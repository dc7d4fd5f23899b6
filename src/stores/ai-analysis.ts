/**
 * The state of /ai-analysis: the viewer's AI status, the daily brief, the ticker asked for, and its analysis (the
 * stored one from GET /api/ai/analysis/{T}, else streamed from POST /api/ai/analysis). The island renders it and
 * calls the actions.
 */
import type { ChatTransport, UIMessage } from 'ai';
import { map, type MapStore, type ReadableAtom } from 'nanostores';
import { aiGet, type AiStatus, type AiText } from '../lib/client/ai';
import { analysisTransport } from '../lib/client/ai-stream';
import { FACTS_ONLY_NOTE } from '../lib/domain/ai/rules';
import { TICKER_RULE, tickerProblem } from '../lib/domain/report/ticker';
import { asciiUpper } from '../lib/domain/text/text';
import { type ChatView, StoreChat } from './ai-stream';

/** An answer being loaded. */
export type Loaded<T> = { state: 'idle' } | { state: 'loading' } | { state: 'done'; value: T } | { state: 'error'; message: string };

export interface AiAnalysisState {
  status: AiStatus | null;
  brief: Loaded<AiText>;
  /** The ticker whose analysis is shown or asked for. */
  ticker: string | null;
  /** The ticker field. */
  input: string;
  inputProblem: string | null;
  /** The stored analysis of `ticker`: null when none is stored (it is then streamed). */
  stored: Loaded<AiText | null>;
}

/** A typed ticker, upper-cased, or what is wrong with it: from the address (`?ticker=`) or the form. */
export function tickerInput(raw: string, from: 'address' | 'form'): { ticker: string; problem: string | null } {
  const ticker = asciiUpper(raw.trim());
  const problem = tickerProblem(ticker);
  if (problem === null) return { ticker, problem: null };
  // The watchlist's wording: the typed text and the rule, once.
  if (ticker === '' && from === 'form') return { ticker, problem: 'Enter a ticker, such as AAPL.' };
  return { ticker, problem: `"${raw.trim().slice(0, 20)}" is not a ticker: use ${TICKER_RULE}.` };
}

/** What the page shows of a streamed analysis. */
export interface StreamedView {
  label: string;
  facts: string;
  /** The text after the last failed number check; empty once only the facts are kept. */
  text: string;
  note: string | null;
  outcome: string;
  /** The status line while streaming. */
  progress: string;
}

/** The streamed analysis: the text after the last failed check, the check's notes, the result; null before its facts arrive. */
export function streamedView(message: UIMessage): StreamedView | null {
  const parts = message.parts as { type: string; text?: string; data?: unknown }[];
  const meta = parts.find((p) => p.type === 'data-meta')?.data as { label: string; facts: string } | undefined;
  if (meta === undefined) return null;
  const lastCheck = parts.findLastIndex((p) => p.type === 'data-check');
  const text = parts
    .slice(lastCheck + 1)
    .filter((p) => p.type === 'text')
    .map((p) => p.text ?? '')
    .join('');
  const result = parts.find((p) => p.type === 'data-result')?.data as { outcome: string } | undefined;
  const incomplete = parts.find((p) => p.type === 'data-incomplete')?.data as { note: string } | undefined;
  const factsOnly = result?.outcome === 'facts-only';
  const checking = lastCheck >= 0 && !factsOnly && result === undefined;
  return {
    label: meta.label,
    facts: meta.facts,
    text: factsOnly || incomplete ? (incomplete ? text : '') : text,
    note: incomplete?.note ?? (factsOnly ? FACTS_ONLY_NOTE : null),
    outcome: incomplete ? 'incomplete' : (result?.outcome ?? 'streaming'),
    progress: checking ? 'A number in the first text was not in the facts: writing it again.' : 'Writing the analysis…',
  };
}

/** What the store reads the AI routes with (the browser's lib/client; a test's own). */
export interface AiAnalysisDeps {
  get: typeof aiGet;
  transport: ChatTransport<UIMessage>;
}

export interface AiAnalysis {
  $state: MapStore<AiAnalysisState>;
  /** The streamed analysis. */
  $stream: ReadableAtom<ChatView>;
  /** On hydration: the status and the brief, and the analysis the address asks for (`?ticker=T`). */
  start(configured: boolean, search: string): void;
  setInput(value: string): void;
  /** The form's ticker: analysed, and answered (for the address), or null with the problem shown. */
  submit(): string | null;
  /** The stored analysis of a ticker, else a streamed one. */
  analyse(ticker: string): Promise<void>;
}

export function createAiAnalysis({ get, transport }: AiAnalysisDeps): AiAnalysis {
  const $state = map<AiAnalysisState>({ status: null, brief: { state: 'idle' }, ticker: null, input: '', inputProblem: null, stored: { state: 'idle' } });
  const chat = new StoreChat({ transport });

  async function analyse(wanted: string): Promise<void> {
    $state.set({ ...$state.get(), ticker: wanted, stored: { state: 'loading' } });
    chat.messages = [];
    const answer = await get('analysis', wanted);
    if (answer.ok) return $state.setKey('stored', { state: 'done', value: answer.value });
    if (answer.status !== 404 || answer.facts === undefined) return $state.setKey('stored', { state: 'error', message: answer.error });
    $state.setKey('stored', { state: 'done', value: null });
    void chat.sendMessage({ text: `Analyse ${wanted}` }, { body: { ticker: wanted } });
  }

  return {
    $state,
    $stream: chat.$view,
    start(configured, search) {
      if (!configured) return;
      const wanted = new URLSearchParams(search).get('ticker');
      void get('status').then((answer) => answer.ok && $state.setKey('status', answer.value));
      $state.setKey('brief', { state: 'loading' });
      void get('brief').then((answer) => $state.setKey('brief', answer.ok ? { state: 'done', value: answer.value } : { state: 'error', message: answer.error }));
      if (wanted) {
        const { ticker, problem } = tickerInput(wanted, 'address');
        $state.set({ ...$state.get(), input: ticker, inputProblem: problem });
        if (problem === null) void analyse(ticker);
      }
    },
    setInput: (value) => $state.setKey('input', value),
    submit() {
      const { ticker, problem } = tickerInput($state.get().input, 'form');
      $state.setKey('inputProblem', problem);
      if (problem !== null) return null;
      void analyse(ticker);
      return ticker;
    },
    analyse,
  };
}

/** The page's one analysis store. */
export const aiAnalysis = createAiAnalysis({ get: aiGet, transport: analysisTransport() });
