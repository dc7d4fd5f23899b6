/** A streamed AI conversation kept in a nanostores atom: the AI SDK's chat logic, with its state readable by any island. */
import { AbstractChat, type ChatInit, type ChatState, type ChatStatus, type UIMessage } from 'ai';
import { atom, type ReadableAtom } from 'nanostores';

/** What an island renders of a chat. */
export interface ChatView {
  messages: UIMessage[];
  status: ChatStatus;
  error: Error | undefined;
}

/** True while an answer is asked for or streaming. */
export function isBusy(status: ChatStatus): boolean {
  return status === 'submitted' || status === 'streaming';
}

/** A copy of a message whose parts the chat's later writes cannot change under the atom's readers. */
function copied<T>(value: T): T {
  if (value === null || typeof value !== 'object' || !Array.isArray((value as { parts?: unknown }).parts)) return value;
  const message = value as unknown as UIMessage;
  return { ...message, parts: message.parts.map((part) => ({ ...part })) } as T;
}

class AtomChatState implements ChatState<UIMessage> {
  readonly $view;

  constructor(messages: UIMessage[]) {
    this.$view = atom<ChatView>({ messages, status: 'ready', error: undefined });
  }

  private update(change: Partial<ChatView>): void {
    this.$view.set({ ...this.$view.get(), ...change });
  }

  get messages(): UIMessage[] {
    return this.$view.get().messages;
  }
  set messages(messages: UIMessage[]) {
    this.update({ messages });
  }
  get status(): ChatStatus {
    return this.$view.get().status;
  }
  set status(status: ChatStatus) {
    this.update({ status });
  }
  get error(): Error | undefined {
    return this.$view.get().error;
  }
  set error(error: Error | undefined) {
    this.update({ error });
  }

  pushMessage = (message: UIMessage): void => this.update({ messages: [...this.messages, message] });
  popMessage = (): void => this.update({ messages: this.messages.slice(0, -1) });
  replaceMessage = (index: number, message: UIMessage): void => this.update({ messages: [...this.messages.slice(0, index), copied(message), ...this.messages.slice(index + 1)] });
  snapshot = copied;
}

/** The AI SDK's chat (send, stream, stop) whose messages, status and error live in `$view`. */
export class StoreChat extends AbstractChat<UIMessage> {
  readonly $view: ReadableAtom<ChatView>;

  constructor({ messages = [], ...init }: ChatInit<UIMessage>) {
    const state = new AtomChatState(messages);
    super({ ...init, state });
    this.$view = state.$view;
  }
}
