import { ErrorWithReasonCode } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { refusalCode } from './connection';

describe('realtime connection', () => {
  it("tells a broker's refusal from a transport failure", () => {
    // what mqtt.js emits for a CONNACK with a failure code: the client id rule changed, say
    expect(refusalCode(new ErrorWithReasonCode('Connection refused: Identifier rejected', 2))).toBe(2);
    expect(refusalCode(new ErrorWithReasonCode('Connection refused: Not authorized', 5))).toBe(5);
    // a socket error carries a string code, or none
    expect(refusalCode(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBeUndefined();
    expect(refusalCode(new Error('connack timeout'))).toBeUndefined();
    expect(refusalCode(null)).toBeUndefined();
  });
});
