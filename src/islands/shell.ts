/**
 * Every page's shell: the DOM behaviour of scripts/shell.ts, and the Toaster and Paywall islands mounted the first
 * time they have something to show (scripts never import islands, so the mounting lives here).
 */
import '../scripts/shell';
import { mountShellIslandsOnDemand } from './mount-on-demand';

mountShellIslandsOnDemand();
