import { describe, expect, it } from 'vitest';
import {
  closeFrame,
  handshakeResponseFrame,
  invocationFrame,
  pingFrame,
  ProtocolError,
  readClientMessage,
  readHandshake,
  RecordReader,
  RECORD_SEPARATOR,
  unknownMethodFrame,
} from './protocol';

const RS = '\x1e';

describe('record framing', () => {
  it('uses 0x1e as the record separator', () => {
    expect(RECORD_SEPARATOR).toBe(RS);
  });

  it('splits several records arriving in one piece', () => {
    const r = new RecordReader();
    expect(r.push(`{"type":6}${RS}{"type":7}${RS}`)).toEqual(['{"type":6}', '{"type":7}']);
  });

  it('keeps a partial record until its separator arrives', () => {
    const r = new RecordReader();
    expect(r.push('{"protocol":"js')).toEqual([]);
    expect(r.push(`on","version":1}${RS}{"ty`)).toEqual(['{"protocol":"json","version":1}']);
    expect(r.push(`pe":6}${RS}`)).toEqual(['{"type":6}']);
    expect(r.push('')).toEqual([]);
  });

  it('refuses an endless unterminated record', () => {
    const r = new RecordReader();
    expect(() => r.push('x'.repeat(70 * 1024))).toThrow(ProtocolError);
  });
});

describe('handshake', () => {
  it('accepts json version 1 and answers {}', () => {
    const result = readHandshake('{"protocol":"json","version":1}');
    expect(result).toEqual({ ok: true });
    expect(handshakeResponseFrame(result)).toBe(`{}${RS}`);
  });

  it('refuses another protocol or version with an error', () => {
    const mp = readHandshake('{"protocol":"messagepack","version":1}');
    expect(mp.ok).toBe(false);
    expect(JSON.parse(handshakeResponseFrame(mp).slice(0, -1))).toEqual({ error: "The protocol 'messagepack' is not supported." });
    expect(readHandshake('{"protocol":"json","version":2}').ok).toBe(false);
    expect(readHandshake('not json').ok).toBe(false);
    expect(readHandshake('{"type":6}').ok).toBe(false);
  });
});

describe('server messages', () => {
  it('writes an invocation of changed with one argument', () => {
    const text = invocationFrame('changed', [{ Resource: 'user', Action: 'created', Id: 'u1' }]);
    expect(text.endsWith(RS)).toBe(true);
    expect(JSON.parse(text.slice(0, -1))).toEqual({ type: 1, target: 'changed', arguments: [{ Resource: 'user', Action: 'created', Id: 'u1' }] });
  });

  it('writes pings and closes', () => {
    expect(pingFrame()).toBe(`{"type":6}${RS}`);
    expect(closeFrame()).toBe(`{"type":7}${RS}`);
    expect(JSON.parse(closeFrame('Session ended.', false).slice(0, -1))).toEqual({ type: 7, error: 'Session ended.', allowReconnect: false });
  });

  it('answers an invocation waiting for a result with an error completion', () => {
    expect(JSON.parse(unknownMethodFrame('7').slice(0, -1))).toEqual({ type: 3, invocationId: '7', error: 'This hub has no methods to invoke.' });
  });
});

describe('client messages', () => {
  it('reads pings, closes and invocations', () => {
    expect(readClientMessage('{"type":6}')).toEqual({ kind: 'ping' });
    expect(readClientMessage('{"type":7}')).toEqual({ kind: 'close' });
    expect(readClientMessage('{"type":1,"target":"x","arguments":[],"invocationId":"3"}')).toEqual({ kind: 'invocation', invocationId: '3' });
    expect(readClientMessage('{"type":1,"target":"x","arguments":[]}')).toEqual({ kind: 'invocation', invocationId: undefined });
    expect(readClientMessage('{"type":5,"invocationId":"3"}')).toEqual({ kind: 'ignored' });
  });

  it('refuses what is not a message', () => {
    expect(() => readClientMessage('{')).toThrow(ProtocolError);
    expect(() => readClientMessage('[1]')).toThrow(ProtocolError);
    expect(() => readClientMessage('{"target":"x"}')).toThrow(ProtocolError);
  });
});
