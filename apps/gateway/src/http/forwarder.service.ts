import { Injectable } from '@nestjs/common';
import {
  describeIssues,
  rpcContract,
  type RpcRequestInput,
  type RpcResponse,
  type RpcSubject,
} from '@exchange/contracts';
import { RpcClient } from '@exchange/service-kit';
import { acceptedInput } from './accepted-input';
import { ApiError } from './api-error';

/**
 * Checks a request against its contract at the edge (a 400 never costs a NATS round trip) and forwards
 * it to the owning service; a coded rejection comes back as an ApiError.
 */
@Injectable()
export class Forwarder {
  constructor(private readonly rpc: RpcClient) {}

  /**
   * `input` is what the client sent (query, params, body); the contract's schema decides if it is valid,
   * and what it does not know stays here.
   */
  async send<S extends RpcSubject>(subject: S, input: unknown): Promise<RpcResponse<S>> {
    const checked = rpcContract[subject].request.safeParse(input);
    if (!checked.success) throw ApiError.of('invalid_request', describeIssues(checked.error));
    const reply = await this.rpc.request(subject, acceptedInput(input, checked.data) as RpcRequestInput<S>);
    if (!reply.ok) throw new ApiError(reply);
    return reply.data;
  }
}
