/**
 * CONTRACT v4, "Card actions": the schema of `{ type: 'CARD_ACTION', player, action, data?, by? }`
 * (its `data` is checked by `dataProblem`, src/schemas.ts, as every decision's), and a
 * CARD_ACTION read with both. Kept here, on `mtg-turn-engine/cards`: a game made by createGame
 * refuses CARD_ACTION before any schema.
 */
import * as z from 'zod/mini';
import { ErrorCode, describeThrown } from '../errors.js';
import { lengthIn, opt, PlayerIdSchema } from '../fields.js';
import { refusal, type Refusal } from '../gate.js';
import { describeIssue, MAX_DATA_BYTES, REPORT_INPUT } from '../schemas.js';

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

/** A CARD_ACTION read with its schema and its `data` checked: its fields, or INVALID_EVENT saying what is wrong. */
export function readCardAction(raw: unknown): z.infer<typeof CardActionSchema> | Refusal {
  const parsed = CardActionSchema.safeParse(raw, REPORT_INPUT);
  if (!parsed.success) return refusal(ErrorCode.INVALID_EVENT, `CARD_ACTION: ${describeIssue(parsed.error, 'event')}`);
  const problem = dataProblem(parsed.data.data, 'CARD_ACTION');
  if (problem !== null) return refusal(ErrorCode.INVALID_EVENT, problem);
  return parsed.data;
}
