import type { Reply, RpcRequestInput, RpcResponse, RpcSubject } from '@exchange/contracts';

/** What sends a request over NATS and answers the service's reply (service-kit's `RpcClient`). */
interface Requester {
  request<S extends RpcSubject>(subject: S, payload: RpcRequestInput<S>): Promise<Reply<RpcResponse<S>>>;
}

/** How a test calls a service: `request` answers its reply, bad payloads included; `data` the data of a success. */
export function rpcCalls(rpc: Requester) {
  const request = <S extends RpcSubject>(subject: S, payload: unknown) => rpc.request(subject, payload as RpcRequestInput<S>);
  return {
    request,
    async data<S extends RpcSubject>(subject: S, payload: unknown): Promise<RpcResponse<S>> {
      const reply = await request(subject, payload);
      if (!reply.ok) throw new Error(`${subject} failed: ${JSON.stringify(reply)}`);
      return reply.data;
    },
  };
}
