/** The server's sense of time, injectable so tests can move it instead of sleeping. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };
