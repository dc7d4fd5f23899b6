/**
 * The live API's routes as a type, for the browser's typed client (lib/client/api-client.ts): a field renamed on the
 * server fails the type check of every browser call that reads it. Type-only: the browser imports no server code.
 */
import type { createApi } from './api';

/** The app createApi builds, mounted at /api. */
export type AppType = ReturnType<typeof createApi>;
