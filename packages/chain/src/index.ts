export * from './keccak';
export * from './address';
