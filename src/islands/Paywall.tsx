import { useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $paywall, closePaywall } from '../stores/paywall';
import { $user, signIn } from '../stores/user';
import { FREE_PLAN, PRO_PLAN } from '../lib/domain/plans';
import ErrorBoundary from './ErrorBoundary';

/**
 * The full-screen 'Choose Your Plan' overlay (spec sections 2, 4, 6, 9) on a native modal dialog: focus stays inside,
 * Escape and 'Continue with free' close it. Upgrading starts sign-in when signed out; signed in, billing is not
 * offered yet and the dialog says so.
 */
function PaywallDialog() {
  const paywall = useStore($paywall);
  const user = useStore($user);
  const dialog = useRef<HTMLDialogElement>(null);
  const [notice, setNotice] = useState('');

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (paywall.open && !el.open) {
      setNotice('');
      el.showModal();
    } else if (!paywall.open && el.open) el.close();
  }, [paywall]);

  const upgrade = () => {
    if (user.status !== 'signed-in') return signIn();
    console.info('Upgrade to Pro requested; online billing is not available yet.');
    setNotice('Online billing is not available yet. Your account stays on the Free plan for now.');
  };

  return (
    <dialog ref={dialog} className="dialog paywall" aria-labelledby="paywall-title" aria-describedby="paywall-description" onClose={closePaywall}>
      <div className="paywall-inner">
        <button type="button" className="dialog-close" onClick={closePaywall} aria-label="Close">×</button>
        <h2 id="paywall-title" className="paywall-title">Choose Your Plan</h2>
        <p id="paywall-description" className="paywall-lead">
          {paywall.open ? `${paywall.feature} is part of ${PRO_PLAN.name}. ` : ''}Compare the plans below.
        </p>
        <div className="plans">
          {[FREE_PLAN, PRO_PLAN].map((plan) => (
            <section key={plan.name} className={`plan${plan === PRO_PLAN ? ' plan-pro' : ''}`} aria-labelledby={`plan-${plan.name}`}>
              <h3 id={`plan-${plan.name}`}>{plan.name}</h3>
              <p className="plan-price">{plan.price}</p>
              {plan.priceNote && <p className="plan-note">{plan.priceNote}</p>}
              <ul>
                {plan.features.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
              {plan === FREE_PLAN ? (
                <button type="button" className="btn" onClick={closePaywall}>Continue with free</button>
              ) : (
                <button type="button" className="btn btn-primary" onClick={upgrade}>Upgrade to Pro</button>
              )}
            </section>
          ))}
        </div>
        {notice && <p role="status" className="paywall-notice">{notice}</p>}
      </div>
    </dialog>
  );
}

/** The Paywall island mounted by the shell on every page; it shows $paywall. */
export default function Paywall() {
  return (
    <ErrorBoundary>
      <PaywallDialog />
    </ErrorBoundary>
  );
}
