import { resourcesIn } from '../resource';

/** `defineResource` in the `mall` domain. */
export const mallResource = resourcesIn('mall');
