/**
 * The gateway serves the three surfaces of the upstream service (catalog, CLOB, data), each on its own
 * port, and all of them on one combined port.
 */
export type Surface = 'combined' | 'catalog' | 'clob' | 'data';

export const SURFACE = Symbol('SURFACE');
