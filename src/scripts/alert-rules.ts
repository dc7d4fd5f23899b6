/**
 * Own alert rules and this browser's push notifications, as DOM nodes: the stock page's Alerts panel shows the
 * stock's rules and a form for a new one on it; /account shows every rule with a ticker field. Plain DOM, no framework.
 */
import { ALERT_RULE_LIMITS } from '../lib/domain/accounts/entitlements';
import { pausedRulesText, RULE_KINDS, RULE_RANGES, type RuleKind, rulePaused } from '../lib/domain/alerts/rules';
import { $alertRules, $push, addAlertRule, loadAlertRules, loadPush, removeAlertRule, setPush } from '../stores/alert-rules';
import { openPaywall } from '../stores/paywall';
import { element } from './dom';

const KIND_LABELS: Record<RuleKind, string> = { above: 'C-Score crosses above', below: 'C-Score crosses below', move: 'C-Score moves by (points, one report)' };

let counter = 0;
let pushRead = false;

/** The rules part: its list, the form (ticker fixed when given) and the push switch. Loads what it shows once. */
export function alertRuleNodes(ticker: string | null): Node[] {
  void loadAlertRules();
  if (!pushRead) void loadPush();
  pushRead = true;
  const id = `alert-rule-${++counter}`;
  const section = element('div', '', { class: 'alert-rules', 'data-testid': 'alert-rules' });
  section.append(element('h3', ticker === null ? 'Your alert rules' : `Your rules for ${ticker}`, { class: 'font-semibold' }));
  const state = $alertRules.get();
  if (state.status === 'failed') {
    section.append(element('p', `Error: ${state.message}`));
    return [section];
  }
  if (state.status !== 'ready') {
    section.append(element('p', 'Loading your alert rules…'));
    return [section];
  }
  // Paused is decided over all the account's rules, oldest first, as the server fires them.
  const paused = new Set(state.rules.filter((_rule, index) => rulePaused(index, state.limit)).map((rule) => rule.id));
  const rules = state.rules.filter((rule) => ticker === null || rule.ticker === ticker);
  const pausedNote = pausedRulesText(state.rules.length, state.limit, state.limit === ALERT_RULE_LIMITS.free);
  if (pausedNote !== null) {
    const note = element('div', '', { class: 'alert-rules-paused', 'data-testid': 'alert-rules-paused' });
    note.append(element('p', pausedNote));
    if (state.limit === ALERT_RULE_LIMITS.free) {
      const upgrade = element('button', 'Upgrade to Pro', { type: 'button', class: 'btn btn-primary' });
      upgrade.addEventListener('click', () => openPaywall(`A limit of ${ALERT_RULE_LIMITS.pro} alert rules`));
      note.append(upgrade);
    }
    section.append(note);
  }
  if (rules.length === 0) section.append(element('p', ticker === null ? 'No rules yet.' : `No rules on ${ticker} yet.`));
  else {
    const list = element('ul', '', { class: 'alert-rule-list' });
    for (const rule of rules) {
      const item = element('li', rule.text);
      if (paused.has(rule.id)) {
        item.setAttribute('data-paused', '');
        item.append(' ', element('span', '(paused: over your plan\'s limit, it does not fire)', { class: 'muted rule-paused' }));
      }
      const remove = element('button', 'Delete', { type: 'button', class: 'btn', 'aria-label': `Delete the rule ${rule.text}` });
      remove.addEventListener('click', () => void removeAlertRule(rule.id));
      item.append(' ', remove);
      list.append(item);
    }
    section.append(list);
  }
  const form = element('form', '', { class: 'alert-rule-form', 'data-testid': 'alert-rule-form', novalidate: '' });
  const field = (label: string, control: HTMLElement, name: string) => {
    control.id = `${id}-${name}`;
    control.setAttribute('name', name);
    if (state.field === name) control.setAttribute('aria-invalid', 'true');
    const wrap = element('div', '', { class: 'alert-rule-field' });
    wrap.append(element('label', label, { for: control.id }), control);
    return wrap;
  };
  const tickerInput = element('input', '', { type: 'text', autocomplete: 'off', maxlength: '10', required: '', placeholder: 'AAPL' });
  if (ticker === null) form.append(field('Ticker', tickerInput, 'ticker'));
  const kind = element('select', '');
  for (const value of RULE_KINDS) kind.append(element('option', KIND_LABELS[value], { value }));
  form.append(field('When', kind, 'kind'));
  const value = element('input', '', { type: 'number', step: 'any', required: '', inputmode: 'decimal' });
  const hint = element('p', '', { class: 'field-hint', id: `${id}-hint` });
  const range = () => {
    const { min, max } = RULE_RANGES[kind.value as RuleKind];
    value.min = String(min);
    value.max = String(max);
    hint.textContent = `From ${min} to ${max}. You have ${state.rules.length} of ${state.limit} rules.`;
  };
  kind.addEventListener('change', range);
  range();
  value.setAttribute('aria-describedby', hint.id);
  form.append(field('Value', value, 'value'), hint);
  form.append(element('button', 'Add rule', { type: 'submit', class: 'btn btn-primary' }));
  if (state.message !== null) form.append(element('p', state.message, { role: 'status', class: state.message.startsWith('Error') ? 'form-error' : 'form-note' }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void addAlertRule({ ticker: ticker ?? tickerInput.value, kind: kind.value, value: value.value === '' ? Number.NaN : Number(value.value) });
  });
  section.append(form, ...pushNodes());
  return [section];
}

/** This browser's push switch. */
function pushNodes(): Node[] {
  const state = $push.get();
  if (state === 'unsupported') return [element('p', 'This browser cannot receive push notifications; alerts still come by email.')];
  if (state === 'denied') return [element('p', 'Notifications are blocked for this site: allow them in the browser\'s site settings to get push alerts.')];
  const on = state === 'on';
  const button = element('button', on ? 'Turn off push on this device' : 'Get push notifications on this device', { type: 'button', class: 'btn', 'data-testid': 'push-toggle' });
  if (state === 'working') button.setAttribute('disabled', '');
  const note = element('p', on ? 'Push is on: one notification per report sums your alerts.' : '', { role: 'status' });
  button.addEventListener('click', () => {
    void setPush(!on).then((problem) => {
      if (problem !== null) note.textContent = `Error: ${problem}`;
    });
  });
  return [button, note];
}

/** Re-renders `render` whenever the rules or the push state change; the function that stops it. */
export function onRulesChange(render: () => void): () => void {
  const stops = [$alertRules.listen(render), $push.listen(render)];
  return () => stops.forEach((stop) => stop());
}
