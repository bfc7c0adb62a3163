/**
 * Imported by main.tsx before the app: creating the router starts loading the pages' code at once,
 * so the guard's first requests are sent from here, ahead of that code in the browser's queue.
 */
import { requestSessionEarly } from '../stores/session.ts';

requestSessionEarly();
