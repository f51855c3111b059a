export * from './ports';
export * from './nats';
export * from './processes';
export * from './until';
export * from './private-nats';
export * from './market-snapshot';
export * from './tcp-relay';
export * from './rpc-calls';
