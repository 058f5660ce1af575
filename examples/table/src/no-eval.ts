/**
 * Imported first: the pages `npm start` serves forbid eval (their Content-Security-Policy), and
 * zod (the engine's schemas) would otherwise probe for it, a CSP violation in the console.
 */
import * as z from 'zod';

z.config({ jitless: true });
