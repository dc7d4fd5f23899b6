import { useEffect, useRef } from 'react';
import { useStore } from '@nanostores/react';
import { $paywall, closePaywall } from '../stores/paywall';
import { $user, signIn } from '../stores/user';
import { HOW_TO_GET_PRO, plansFor } from '../lib/domain/accounts/plans';
import { SITE_PLANS } from '../lib/domain/accounts/site-plans';
import { withErrorBoundary } from './ErrorBoundary';

/**
 * The full-screen 'Choose Your Plan' overlay (spec sections 2, 4, 6, 9) on a native modal dialog: focus stays inside,
 * Escape and 'Continue with free' close it. Upgrading starts sign-in when signed out; signed in, it posts the account
 * page's upgrade form (/api/forms/upgrade), which goes to Stripe Checkout when the server has Stripe, else back to
 * /account with the server's word on how to get Pro. The plans follow PAYWALL; without Stripe there is no upgrade
 * button, only how to get Pro.
 */
const { free: FREE_PLAN, pro: PRO_PLAN } = plansFor(SITE_PLANS.paywall);

function PaywallDialog() {
  const paywall = useStore($paywall);
  const user = useStore($user);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (paywall.open && !el.open) {
      el.showModal();
    } else if (!paywall.open && el.open) el.close();
  }, [paywall]);

  const signedIn = user.status === 'signed-in';

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
                !SITE_PLANS.billing ? (
                  <p className="plan-note" data-how-to-get-pro>{HOW_TO_GET_PRO}</p>
                ) : (
                <form method="post" action="/api/forms/upgrade">
                  <input type="hidden" name="plan" value="monthly" />
                  {signedIn ? (
                    <button type="submit" className="btn btn-primary">Upgrade to Pro</button>
                  ) : (
                    <button type="button" className="btn btn-primary" onClick={() => signIn()}>Upgrade to Pro</button>
                  )}
                </form>
                )
              )}
            </section>
          ))}
        </div>
      </div>
    </dialog>
  );
}

/** The Paywall island mounted by the shell on every page; it shows $paywall. */
export default withErrorBoundary(PaywallDialog, 'Paywall');
