/**
 * The saved screens of a signed-in account (components/screener/SavedScreens.astro): list, save the screen in the
 * address (on /screener), rename, alert on or off, delete, through /api/screens. The server enforces the plan's limit
 * and says what to fix; its message shows as it is.
 */
import { answer, api, type AnswerOf } from '../../lib/client/api-client';
import { ApiError } from '../../lib/client/http';
import { $user } from '../../stores/user';

type Screen = AnswerOf<typeof api.screens.$get>['screens'][number];

function button(text: string, label: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'btn';
  b.textContent = text;
  b.setAttribute('aria-label', label);
  b.addEventListener('click', onClick);
  return b;
}

/** Wires the saved-screens section of the page, if it has one. */
export function enhanceSavedScreens(): void {
  const root = document.querySelector<HTMLElement>('[data-saved-screens]');
  if (!root) return;
  const list = root.querySelector<HTMLUListElement>('[data-saved-list]')!;
  const error = root.querySelector<HTMLElement>('[data-saved-error]')!;
  const limitText = root.querySelector<HTMLElement>('[data-saved-limit]');
  const form = root.querySelector<HTMLFormElement>('form[data-save-screen]');

  const fail = (e: unknown) => {
    error.textContent = e instanceof ApiError ? e.message : 'The saved screens could not be reached; try again.';
    error.hidden = false;
  };
  const run = async (call: () => Promise<unknown>) => {
    error.hidden = true;
    try {
      await call();
      await load();
    } catch (e) {
      fail(e);
    }
  };

  const item = (screen: Screen): HTMLLIElement => {
    const li = document.createElement('li');
    li.dataset.screenId = screen.id;
    const link = document.createElement('a');
    link.className = 'link';
    link.href = `/screener?${screen.query}`;
    link.textContent = screen.name;
    const alert = document.createElement('label');
    alert.className = 'scr-check';
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = screen.alert;
    box.addEventListener('change', () => void run(() => answer(api.screens[':id'].$patch({ param: { id: screen.id }, json: { alert: box.checked } }))));
    alert.append(box, ' Alert');
    li.append(
      link,
      alert,
      button('Rename', `Rename ${screen.name}`, () => {
        const name = prompt('New name of the screen', screen.name);
        if (name !== null) void run(() => answer(api.screens[':id'].$patch({ param: { id: screen.id }, json: { name } })));
      }),
      button('Delete', `Delete ${screen.name}`, () => {
        if (confirm(`Delete the screen "${screen.name}"?`)) void run(() => api.screens[':id'].$delete({ param: { id: screen.id } }).then((r) => (r.ok ? r : Promise.reject(new ApiError(r.status, 'The screen could not be deleted.')))));
      }),
    );
    return li;
  };

  async function load(): Promise<void> {
    const body = await answer(api.screens.$get());
    list.replaceChildren(...body.screens.map(item));
    if (limitText) limitText.textContent = `Your plan keeps ${body.limit === 1 ? '1 saved screen' : `up to ${body.limit} saved screens`}.`;
  }

  form?.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = String(new FormData(form).get('name') ?? '');
    void run(() => answer(api.screens.$post({ json: { name, query: location.search.slice(1), alert: true } }))).then(() => {
      if (error.hidden) form.reset();
    });
  });

  $user.subscribe((user) => {
    root.hidden = user.status !== 'signed-in';
    if (user.status === 'signed-in') void load().catch(fail);
  });
}
