/**
 * Why the machine refused an event: the same rules functions its guards use, asked again
 * for the reason. Only called on the refusal path.
 */
import type { Awaiting, TurnContext, TurnEvent } from '../machines/turn.types.js';
import { ErrorCode, type EngineErrorInfo, type Violation } from './errors.js';
import { discardDue } from './rules/cleanup.js';
import { attackViolation, blockViolation } from './rules/combat.js';
import { spendViolation } from './rules/mana.js';
import { priorityViolation } from './rules/priority.js';
import { MAX_PENDING_EXTRA_PHASES, MAX_PENDING_EXTRA_TURNS, MAX_PENDING_SKIPS } from './rules/schedule.js';
import { castViolation, landViolation } from './rules/timing.js';

function illegal(v: Violation): EngineErrorInfo {
  return { code: ErrorCode.ILLEGAL_ACTION, message: v.message, rule: v.rule };
}

function leftGame(ctx: TurnContext, player: string): EngineErrorInfo | null {
  return ctx.players.includes(player) ? null : illegal({ rule: '800.4a', message: `${player} has left the game` });
}

function notAwaited(awaiting: Awaiting | null, what: string, rule: string): EngineErrorInfo {
  const now = awaiting === null ? 'nothing is awaited' : `the game awaits ${awaiting.kind} from ${awaiting.player}`;
  return illegal({ rule, message: `${what} is not awaited now: ${now}` });
}

/** The reason an event that passed the schema was refused. */
export function explainRefusal(ctx: TurnContext, awaiting: Awaiting | null, event: TurnEvent): EngineErrorInfo {
  const fallback: Violation = { rule: '117.1', message: `${event.type} is not allowed now` };
  switch (event.type) {
    case 'PASS_PRIORITY':
      return illegal(priorityViolation(ctx, event.player, '117.3d', 'pass priority') ?? fallback);
    case 'CAST_SPELL':
      return illegal(castViolation(ctx, event.player, event.speed, 'spell') ?? fallback);
    case 'ACTIVATE_ABILITY':
      return illegal(castViolation(ctx, event.player, event.speed, 'ability') ?? fallback);
    case 'PLAY_LAND':
      return illegal(landViolation(ctx, event.player) ?? fallback);
    case 'DECLARE_ATTACKERS': {
      if (awaiting?.kind !== 'declareAttackers' || awaiting.player !== event.player) {
        return notAwaited(awaiting, `a declaration of attackers by ${event.player}`, '508.1');
      }
      return illegal(attackViolation(ctx, event.player, event.attackers) ?? fallback);
    }
    case 'DECLARE_BLOCKERS': {
      if (awaiting?.kind !== 'declareBlockers' || awaiting.player !== event.player) {
        return notAwaited(awaiting, `a declaration of blockers by ${event.player}`, '509.1');
      }
      return illegal(blockViolation(ctx, event.player, event.blockers) ?? fallback);
    }
    case 'DISCARD': {
      if (awaiting?.kind !== 'discard' || awaiting.player !== event.player) return notAwaited(awaiting, `a discard by ${event.player}`, '514.1');
      return illegal({ rule: '514.1', message: `${event.player} must discard exactly ${discardDue(ctx)} card(s), not ${event.count}` });
    }
    case 'SPEND_MANA': {
      return illegal(spendViolation(ctx, event.player, event.amount) ?? fallback);
    }
    case 'HAND_SIZE':
    case 'ADD_MANA':
    case 'CONCEDE':
      return leftGame(ctx, event.player) ?? illegal(fallback);
    case 'ADD_EXTRA_TURN':
      return (
        leftGame(ctx, event.player) ?? {
          code: ErrorCode.LOOP_LIMIT,
          message: `at most ${MAX_PENDING_EXTRA_TURNS} extra turns can be pending at once`,
        }
      );
    case 'ADD_EXTRA_COMBAT':
      return { code: ErrorCode.LOOP_LIMIT, message: `at most ${MAX_PENDING_EXTRA_PHASES} added phases can be pending at once` };
    case 'SKIP_NEXT':
      return (
        leftGame(ctx, event.player) ?? {
          code: ErrorCode.LOOP_LIMIT,
          message: `at most ${MAX_PENDING_SKIPS} skips of the same thing can be pending for one player`,
        }
      );
    case 'TRIGGER':
      return illegal(fallback);
  }
}
