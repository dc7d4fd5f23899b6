/**
 * The account's API keys (components/account/ApiKeys.astro): list, create (the key shown once), revoke, through
 * /api/account/keys. The server's message shows as it is when it refuses.
 */
import { answer, api, type AnswerOf } from '../lib/client/api-client';
import { ApiError } from '../lib/client/http';
import { $user } from '../stores/user';

type Key = AnswerOf<typeof api.account.keys.$get>['keys'][number];

/** Wires the API keys section of the page, if it has one. */
export function enhanceApiKeys(): void {
  const root = document.querySelector<HTMLElement>('[data-api-keys]');
  if (!root) return;
  const list = root.querySelector<HTMLUListElement>('[data-api-key-list]')!;
  const error = root.querySelector<HTMLElement>('[data-api-key-error]')!;
  const form = root.querySelector<HTMLFormElement>('form[data-api-key-form]')!;
  const fresh = root.querySelector<HTMLElement>('[data-api-key-new]')!;
  const text = root.querySelector<HTMLElement>('[data-api-key-text]')!;
  const allowance = root.querySelector<HTMLElement>('[data-api-key-allowance]')!;

  const fail = (e: unknown) => {
    error.textContent = e instanceof ApiError ? e.message : 'The API keys could not be reached; try again.';
    error.hidden = false;
  };

  const item = (key: Key): HTMLLIElement => {
    const li = document.createElement('li');
    li.dataset.apiKeyId = key.id;
    const name = document.createElement('span');
    name.textContent = `${key.label} (${key.start}…), ${key.usedToday.toLocaleString('en-US')} ${key.usedToday === 1 ? 'request' : 'requests'} today`;
    const revoke = document.createElement('button');
    revoke.type = 'button';
    revoke.className = 'btn btn-danger';
    revoke.textContent = 'Revoke';
    revoke.setAttribute('aria-label', `Revoke the key ${key.label}`);
    revoke.addEventListener('click', () => {
      if (!confirm(`Revoke the key "${key.label}"? Programs using it are refused from their next request.`)) return;
      error.hidden = true;
      void answer(api.account.keys[':id'].revoke.$post({ param: { id: key.id } }))
        .then(load)
        .catch(fail);
    });
    li.append(name, revoke);
    return li;
  };

  async function load(): Promise<void> {
    const body = await answer(api.account.keys.$get());
    list.replaceChildren(...body.keys.map(item));
    allowance.textContent = `each key of yours may make ${body.allowance.toLocaleString('en-US')} requests a day.`;
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    error.hidden = true;
    const label = String(new FormData(form).get('label') ?? '');
    void answer(api.account.keys.$post({ json: { label } }))
      .then(async (made) => {
        text.textContent = made.key;
        fresh.hidden = false;
        form.reset();
        await load();
      })
      .catch(fail);
  });
  root.querySelector<HTMLButtonElement>('[data-api-key-copy]')!.addEventListener('click', () => {
    void navigator.clipboard?.writeText(text.textContent ?? '');
  });

  $user.subscribe((user) => {
    root.hidden = user.status !== 'signed-in';
    if (user.status === 'signed-in') void load().catch(fail);
  });
}
