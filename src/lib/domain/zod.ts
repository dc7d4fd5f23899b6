/**
 * zod for the domain's schemas. In a browser the schemas parse without compiling: the site's Content-Security-Policy
 * forbids eval, which zod otherwise tries as each object schema is built (a reported violation on every page).
 */
import { config, z } from 'zod';

if (typeof document !== 'undefined') config({ jitless: true });

export { z };
