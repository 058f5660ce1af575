/**
 * CONTRACT v4, "Card actions": the schema of `{ type: 'CARD_ACTION', player, action, data?, by? }`
 * (its `data` is checked by `dataProblem`, src/schemas.ts, as every decision's). Kept here, on
 * `mtg-turn-engine/cards`: a game made by createGame refuses CARD_ACTION before any schema.
 */
import * as z from 'zod/mini';
import { describeThrown } from '../errors.js';
import { lengthIn, opt, PlayerIdSchema } from '../fields.js';
import { MAX_DATA_BYTES } from '../schemas.js';

export const CardActionSchema = z.object({ type: z.literal('CARD_ACTION'), player: PlayerIdSchema, action: z.string().check(lengthIn(1, 64)), data: z.optional(z.unknown()), by: opt(PlayerIdSchema), at: opt(z.number()) });

/** What is wrong with an event's `data` (CONTRACT v4: JSON of at most 4,096 UTF-8 bytes), or null. */
export function dataProblem(data: unknown, type: string): string | null {
  if (data === undefined) return null;
  let json: string | undefined;
  try {
    json = JSON.stringify(data);
  } catch (err) {
    return `${type}.data: must be JSON (${describeThrown(err)})`;
  }
  if (json === undefined) return `${type}.data: must be JSON, got ${typeof data}`;
  const bytes = new TextEncoder().encode(json).length;
  return bytes > MAX_DATA_BYTES ? `${type}.data: ${bytes} bytes of JSON, more than the ${MAX_DATA_BYTES} allowed` : null;
}
