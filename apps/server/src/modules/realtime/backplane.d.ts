// aedes-persistence-redis ships no types; this is the part the embedded broker uses.
declare module 'aedes-persistence-redis/asyncPersistence.js' {
  export default class AsyncRedisPersistence {
    constructor(options?: Record<string, unknown>);
    setup(broker: unknown): Promise<void>;
    destroy(): Promise<void>;
    createRetainedStreamCombi(patterns: string[]): AsyncIterable<unknown>;
  }
}
