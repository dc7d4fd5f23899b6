/**
 * The state of /ai-chat: the conversation (streamed from POST /api/ai/chat), kept in this browser between visits,
 * the question being typed and the viewer's AI status. The island renders it and calls the actions.
 */
import type { ChatTransport, UIMessage } from 'ai';
import { atom, map, type MapStore, type ReadableAtom } from 'nanostores';
import { aiGet, type AiStatus } from '../lib/client/ai';
import { chatTransport } from '../lib/client/ai-stream';
import { aiLabel, MAX_CHAT_INPUT_CHARS, tickersInToolOutput } from '../lib/domain/ai/rules';
import { type ChatView, isBusy, StoreChat } from './ai-stream';

/** Where the conversation stays in this browser. */
export const CHAT_STORAGE_KEY = 'ai-chat';

const TOOL_NAMES: Record<string, string> = {
  findTicker: 'searched the report',
  readTicker: "read a stock's record",
  listQualified: 'listed qualified stocks',
  compareTickers: 'compared stocks',
  explainRules: 'read the C-Score rules',
};

/** A new conversation's id. */
export function newChatId(): string {
  return `chat-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The conversation saved in this browser, or a new one when none (or a broken one) is saved. */
export function restoredChat(saved: string | null): { id: string; messages: UIMessage[] } {
  try {
    const value = JSON.parse(saved ?? 'null') as { id?: string; messages?: UIMessage[] } | null;
    if (value && typeof value.id === 'string' && Array.isArray(value.messages)) return { id: value.id, messages: value.messages };
  } catch {
    // A broken saved conversation: start a new one.
  }
  return { id: newChatId(), messages: [] };
}

/** The label of every answer: the model and the report (a chat answer is checked against its lookups, not "the facts below"). */
export function chatLabel(model: string, reportDate: string): string {
  return aiLabel(model, reportDate).replace(' Every number in it is checked against the facts below.', '');
}

/** What the page shows of one assistant answer. */
export interface AnswerView {
  /** What the tools looked up, each once. */
  lookedUp: string[];
  text: string;
  /** Tickers the lookups returned: the text links them. */
  tickers: Set<string>;
  incomplete: string | null;
  unsupported: string | null;
  /** The lookups' answers, shown under "What the AI looked up". */
  outputs: unknown[];
}

/** One assistant answer: what the tools looked up, the text, and its notes. */
export function answerView(message: UIMessage): AnswerView {
  const parts = message.parts as { type: string; text?: string; output?: unknown; data?: unknown }[];
  const tools = parts.filter((p) => p.type.startsWith('tool-'));
  const outputs = tools.filter((p) => p.output !== undefined).map((p) => p.output);
  const tickers = new Set<string>();
  for (const output of outputs) tickersInToolOutput(output, tickers);
  return {
    lookedUp: [...new Set(tools.map((p) => TOOL_NAMES[p.type.slice(5)] ?? p.type.slice(5)))],
    text: parts
      .filter((p) => p.type === 'text')
      .map((p) => p.text ?? '')
      .join('\n\n'),
    tickers,
    incomplete: (parts.find((p) => p.type === 'data-incomplete')?.data as { note: string } | undefined)?.note ?? null,
    unsupported: (parts.find((p) => p.type === 'data-unsupported')?.data as { note: string } | undefined)?.note ?? null,
    outputs,
  };
}

/** Whether a typed question can be sent now. */
export function canSend(input: string, busy: boolean): boolean {
  const text = input.trim();
  return text !== '' && !busy && text.length <= MAX_CHAT_INPUT_CHARS;
}

export interface AiChatState {
  /** The question being typed. */
  input: string;
  status: AiStatus | null;
  /** False until the island runs: the server-rendered form stays disabled, so nothing typed before then is lost. */
  ready: boolean;
}

/** Where the conversation is kept (localStorage in the browser). */
export type ChatStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface AiChatDeps {
  get: typeof aiGet;
  transport: ChatTransport<UIMessage>;
  /** Null when the browser keeps nothing (storage off). */
  storage: () => ChatStorage | null;
}

export interface AiChat {
  $state: MapStore<AiChatState>;
  /** The conversation: messages, status, error. */
  $conversation: ReadableAtom<ChatView>;
  /** On hydration: the saved conversation, the status, and the form enabled. */
  start(): void;
  setInput(value: string): void;
  /** Sends the typed question (when `canSend`), and empties the field. */
  send(): void;
  /** Stops the answer being written. */
  stop(): void;
  /** Forgets the conversation (here and in this browser) and starts a new one. */
  startOver(): void;
}

export function createAiChat({ get, transport, storage }: AiChatDeps): AiChat {
  const $state = map<AiChatState>({ input: '', status: null, ready: false });
  const $conversation = atom<ChatView>({ messages: [], status: 'ready', error: undefined });
  let chat: StoreChat | null = null;
  let unbind = (): void => {};

  function refreshStatus(): void {
    void get('status').then((answer) => answer.ok && $state.setKey('status', answer.value));
  }

  function save(id: string, view: ChatView): void {
    if (isBusy(view.status)) return;
    try {
      storage()?.setItem(CHAT_STORAGE_KEY, JSON.stringify({ id, messages: view.messages }));
    } catch {
      // Storage full or off: the conversation lives as long as the page.
    }
  }

  function open(id: string, messages: UIMessage[]): void {
    unbind();
    const next = new StoreChat({ id, messages, transport, onFinish: refreshStatus });
    chat = next;
    unbind = next.$view.subscribe((view) => {
      $conversation.set(view);
      save(next.id, view);
    });
  }

  function savedText(): string | null {
    try {
      return storage()?.getItem(CHAT_STORAGE_KEY) ?? null;
    } catch {
      return null;
    }
  }

  return {
    $state,
    $conversation,
    start() {
      const saved = restoredChat(savedText());
      open(saved.id, saved.messages);
      $state.setKey('ready', true);
      refreshStatus();
    },
    setInput: (value) => $state.setKey('input', value),
    send() {
      const { input } = $state.get();
      if (chat === null || !canSend(input, isBusy(chat.status))) return;
      void chat.sendMessage({ text: input.trim() });
      $state.setKey('input', '');
    },
    stop() {
      void chat?.stop();
    },
    startOver() {
      void chat?.stop();
      try {
        storage()?.removeItem(CHAT_STORAGE_KEY);
      } catch {
        // Storage off: nothing was kept.
      }
      open(newChatId(), []);
    },
  };
}

/** The page's one chat store. */
export const aiChat = createAiChat({ get: aiGet, transport: chatTransport(), storage: () => (typeof localStorage === 'undefined' ? null : localStorage) });
