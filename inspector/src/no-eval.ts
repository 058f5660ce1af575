/**
 * Imported first: the page's Content-Security-Policy forbids eval, and zod would otherwise
 * probe for it (a CSP violation in the console) when it first parses an object.
 */
import * as z from 'zod';

z.config({ jitless: true });
