/**
 * Issue 31, point 6 (CPU per send): the server reads the usual client message by hand
 * (`{ kind: 'send', id, event }`, `{ kind: 'resume', lastSeq }`) and gives everything else to the
 * schema, which says what is wrong. Both read a message the same way.
 */
import { describe, expect, it } from 'vitest';
import { encodeMessage, parseClientMessage } from '../../src/client/protocol.js';

const read = (value: unknown) => parseClientMessage(encodeMessage(value as never));

describe("reading a client's message (src/client/protocol.ts)", () => {
  it('reads the usual send and resume as the schema does (unknown keys dropped by the schema)', () => {
    const event = { type: 'PASS_PRIORITY', player: 'A' };
    expect(read({ kind: 'send', id: 7, event })).toEqual({ ok: true, message: { kind: 'send', id: 7, event } });
    // Not the usual shape (a key more): the schema reads it, to the same message.
    expect(read({ kind: 'send', id: 7, event, extra: true })).toEqual({ ok: true, message: { kind: 'send', id: 7, event } });
    expect(read({ id: 7, event, kind: 'send' })).toEqual({ ok: true, message: { kind: 'send', id: 7, event } });
    expect(read({ kind: 'resume', lastSeq: 0 })).toEqual({ ok: true, message: { kind: 'resume', lastSeq: 0 } });
    expect(read({ kind: 'resume', lastSeq: 3, more: 1 })).toEqual({ ok: true, message: { kind: 'resume', lastSeq: 3 } });
  });

  it('gives what the fast path does not take to the schema, which names the field', () => {
    expect(read({ kind: 'send', id: -1, event: {} })).toMatchObject({ ok: false, id: null, message: expect.stringContaining('id') });
    expect(read({ kind: 'send', id: 1.5, event: {} })).toMatchObject({ ok: false, message: expect.stringContaining('id') });
    expect(read({ kind: 'resume', lastSeq: '3' })).toMatchObject({ ok: false, message: expect.stringContaining('lastSeq') });
    expect(read({ kind: 'shout', id: 2 })).toMatchObject({ ok: false, id: 2 });
    expect(read([1, 2])).toMatchObject({ ok: false });
    expect(read(null)).toMatchObject({ ok: false });
    expect(parseClientMessage(new Uint8Array([0xff, 0xfe]))).toMatchObject({ ok: false, message: expect.stringContaining('not UTF-8 JSON') });
  });
});
