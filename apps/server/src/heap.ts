import { setFlagsFromString } from 'node:v8';

/**
 * V8 without allocation-site pretenuring (docs/adr/022). Imported first by `main.ts`, before anything
 * allocates on the request path.
 *
 * Pretenuring makes V8 allocate an allocation site's objects straight in the old generation once most
 * of them outlived a scavenge. With fifty requests in flight, the parsed rows, header blocks and
 * validated queries of a request all live across a scavenge, so their sites were pretenured: the old
 * generation filled with request garbage at ~20 MB/s and a full mark-compact ran every 8 s, stalling
 * every request in flight. Without it these objects die young.
 *
 * `node --allocation-site-pretenuring dist/main.js` keeps V8's default.
 */
if (!process.execArgv.includes('--allocation-site-pretenuring')) setFlagsFromString('--no-allocation-site-pretenuring');
