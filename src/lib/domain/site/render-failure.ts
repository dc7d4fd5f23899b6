/** The spec's render failure (section 8), shown in place of an island that threw, and the test builds' way to cause one. */

/** Spec section 8's text, followed on the page by the error's own message. */
export const RENDER_FAILURE = 'Unable to load application. Please try refreshing the page or contact support if the problem persists.';

/** The query parameter that makes one island throw in a build made with ISLAND_FAULTS=on (the e2e builds only). */
export const ISLAND_FAULT_PARAM = 'island-fault';

declare const __ISLAND_FAULTS__: boolean | undefined;

const faultsBuilt = typeof __ISLAND_FAULTS__ !== 'undefined' && __ISLAND_FAULTS__;
// The address the page was opened with, read when the first island loads: the detail dialog replaces the address
// with /signal/{T} before its own islands render.
const openedWith = faultsBuilt && typeof location !== 'undefined' ? location.search : '';

/**
 * The error an island named `name` throws when the build allows test faults and the page was opened with an address
 * that asks for one (`?island-fault=PriceCard`), else null. In any other build `__ISLAND_FAULTS__` is the constant
 * false (astro.config.mjs defines it from ISLAND_FAULTS), so the minifier drops the check and no address can trigger it.
 */
export function islandFault(name: string): Error | null {
  if (!faultsBuilt) return null;
  return new URLSearchParams(openedWith).get(ISLAND_FAULT_PARAM) === name ? new Error(`Test fault: the ${name} island threw on purpose (${ISLAND_FAULT_PARAM}=${name}).`) : null;
}
